import type { SendError } from './outbound';

/**
 * What the send governor does with a provider answer, by error code (the provider's
 * error-codes page). Throughput and pair limits are ours to respect: back off and retry, never
 * fail. 131047 means the window closed under us. Template (132xxx) and other request errors
 * fail the message with the provider's words. 5xx, timeouts and unreachable retry; a timeout
 * may hide an accepted send, so it is `unknown`: held until a status webhook names it or the
 * reconcile delay passes.
 */
export type SendOutcome =
  | { kind: 'throttled'; retryAfterMs: number; code: number }
  | { kind: 'pair_limited'; retryAfterMs: number }
  | { kind: 'window_closed'; error: SendError }
  | { kind: 'rejected'; error: SendError }
  | { kind: 'transient'; retryAfterMs: number }
  | { kind: 'unknown' };

export const THROUGHPUT_ERROR = 130429;
export const PAIR_RATE_ERROR = 131056;
export const WINDOW_CLOSED_ERROR = 131047;
/** Spam / account-level rate limits the provider also answers with a retry-later meaning. */
const RETRY_LATER_CODES = new Set([4, 80007, 130429, 131048, 133016]);
/** Token and permission problems: an operator fixes them; keep messages queued meanwhile. */
const CONFIG_CODES = new Set([0, 3, 10, 104, 190, 200, 131005, 131031]);

export interface ProviderFailure {
  /** HTTP status, null when there was no answer. */
  status: number | null;
  /** No answer, and the request may have arrived (timeout, connection dropped mid-call). */
  outcomeUnknown: boolean;
  code?: number;
  title?: string;
  message?: string;
  details?: string;
}

/** Back-off for the nth retry of a transient failure: 1 s doubling to 60 s. */
export const transientBackoffMs = (attempt: number): number => Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));

export function classifyProviderFailure(f: ProviderFailure, attempt: number, pairSpacingMs: number): SendOutcome {
  if (f.status === null) return f.outcomeUnknown ? { kind: 'unknown' } : { kind: 'transient', retryAfterMs: transientBackoffMs(attempt) };
  const error: SendError = {
    code: f.code ?? f.status,
    title: f.title ?? f.message ?? `provider answered ${f.status}`,
    ...(f.message ? { message: f.message } : {}),
    ...(f.details ? { details: f.details } : {}),
  };
  if (f.code === PAIR_RATE_ERROR) return { kind: 'pair_limited', retryAfterMs: pairSpacingMs };
  if (f.code !== undefined && RETRY_LATER_CODES.has(f.code)) return { kind: 'throttled', retryAfterMs: 1000, code: f.code };
  if (f.code === WINDOW_CLOSED_ERROR) return { kind: 'window_closed', error };
  if (f.status >= 500 || f.status === 429 || f.status === 408) return { kind: 'transient', retryAfterMs: transientBackoffMs(attempt) };
  if (f.code !== undefined && CONFIG_CODES.has(f.code)) return { kind: 'transient', retryAfterMs: Math.max(30_000, transientBackoffMs(attempt)) };
  return { kind: 'rejected', error };
}
