import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Env } from '@mos/config';

type ThrottleEnv = Pick<Env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT' | 'LOGIN_MAX_FAILURES_PER_ADDRESS' | 'LOGIN_FAILURE_WINDOW_SECONDS'>;

export interface LoginThrottle {
  /** Spends one attempt of the account and of the address: null, or the seconds to wait. */
  attempt(email: string, address: string): Promise<number | null>;
  /** The password was right: the account starts afresh and the address gets its attempt back. */
  succeeded(email: string, address: string): Promise<void>;
}

/**
 * Failed sign-ins per account (the email, lowercased) and per client address, in this process.
 * Attempts are spent up front, before any password work, so concurrent guesses cannot overrun
 * the limit and an unknown email is throttled exactly like a known one.
 */
export function createLoginThrottle(env: ThrottleEnv): LoginThrottle {
  const duration = env.LOGIN_FAILURE_WINDOW_SECONDS;
  const accounts = new RateLimiterMemory({ keyPrefix: 'login-account', points: env.LOGIN_MAX_FAILURES_PER_ACCOUNT, duration });
  const addresses = new RateLimiterMemory({ keyPrefix: 'login-address', points: env.LOGIN_MAX_FAILURES_PER_ADDRESS, duration });
  const account = (email: string) => email.trim().toLowerCase();
  return {
    async attempt(email, address) {
      try {
        await addresses.consume(address);
        await accounts.consume(account(email));
        return null;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      }
    },
    async succeeded(email, address) {
      await accounts.delete(account(email));
      await addresses.reward(address, 1);
    },
  };
}
