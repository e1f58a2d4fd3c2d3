import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Constant-time string equality that does not leak length through early exit. The hashes are
 * over UTF-16 code units: UTF-8 turns every unpaired surrogate into U+FFFD, so "x\ud800"
 * would have equalled "x\ufffd".
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf16le').digest();
  const hb = createHash('sha256').update(b, 'utf16le').digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** A high-entropy bearer token: `${prefix}_${43 base64url chars}` (256 bits). */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
