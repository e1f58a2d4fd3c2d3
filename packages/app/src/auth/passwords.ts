import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id (memory-hard) through @node-rs/argon2: prebuilt native binaries from npm, no
 * node-gyp step, and the OWASP-recommended parameters (19 MiB, t=2, p=1).
 */
const PARAMS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verified against when no member matches, so unknown emails cost the same as wrong passwords. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('mos-timing-equaliser');
  return dummyHash;
}

export const MIN_PASSWORD_LENGTH = 12;
