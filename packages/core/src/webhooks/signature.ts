import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a provider signature did not verify; stored on the event and its rejection row. */
export type SignatureError = 'missing' | 'malformed' | 'mismatch' | 'no_secret';
export type SignatureResult = { ok: true } | { ok: false; error: SignatureError };

const HEADER_RE = /^sha256=([0-9a-f]{64})$/i;

/** `sha256=<hex>` of HMAC-SHA256(secret, raw bytes): what the provider sends. */
export function signProviderBody(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Verifies `X-Hub-Signature-256` over the exact raw bytes. Pure: the caller supplies the
 * secret (or its absence). The digests are compared as fixed-length byte arrays with
 * timingSafeEqual, so timing reveals nothing about how much of a guess was right.
 * Order of checks: no secret configured wins (nothing could ever verify), then a missing
 * header, then a header that is not `sha256=` + 64 hex chars, then the comparison.
 */
export function verifyProviderSignature(input: { rawBody: Buffer; header: string | undefined | null; secret: string | undefined | null }): SignatureResult {
  if (!input.secret) return { ok: false, error: 'no_secret' };
  const header = input.header?.trim();
  if (!header) return { ok: false, error: 'missing' };
  const match = HEADER_RE.exec(header);
  if (!match) return { ok: false, error: 'malformed' };
  const given = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', input.secret).update(input.rawBody).digest();
  return timingSafeEqual(given, expected) ? { ok: true } : { ok: false, error: 'mismatch' };
}
