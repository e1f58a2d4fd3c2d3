import { createHmac, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../hashing';

/**
 * Inbound webhook signatures (spec: Inbound webhooks). Two header families verify against the
 * same stored key, so a sender can use whichever library it already has:
 *  - `X-Service-Signature: t=<unix>,v1=<hex>`: byte-for-byte Stripe's scheme, so Stripe's own
 *    signer given the hex signing key as its secret produces a valid header;
 *  - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), given
 *    `standardWebhooksSecret(key)`.
 * Verification is split in two so the cheap, key-free checks (presence, shape, clock) run before
 * the configuration is looked up, and only the HMAC needs the key.
 */

export const INBOUND_SIGNATURE_TOLERANCE_SECONDS = 300;

/** Work bounds: a header is parsed in O(length), and a sender cannot make us compute many HMAC comparisons. */
const MAX_HEADER_LENGTH = 4096;
const MAX_SIGNATURES = 8;
const DIGEST_BYTES = 32;

/** lowercase hex SHA-256 of the one-time secret: both the stored hash and the HMAC key. */
export function inboundSigningKey(secret: string): string {
  return sha256Hex(secret);
}

/**
 * 'whsec_' + base64(ASCII bytes of the signing key): what a Standard Webhooks library is given.
 * Those libraries base64-decode the part after `whsec_` and use the bytes as the HMAC key, so
 * encoding the hex string's own bytes makes both schemes share one key.
 */
export function standardWebhooksSecret(signingKeyHex: string): string {
  return `whsec_${Buffer.from(signingKeyHex, 'utf8').toString('base64')}`;
}

export type InboundSignatureError = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type ParsedInboundSignature =
  | { scheme: 'v1'; timestamp: number; signatures: Buffer[] } // X-Service-Signature
  | { scheme: 'standard'; id: string; timestamp: number; signatures: Buffer[] }; // webhook-id/-timestamp/-signature
export interface InboundSignatureHeaders {
  serviceSignature?: string;
  webhookId?: string;
  webhookTimestamp?: string;
  webhookSignature?: string;
}
export type ParseInboundSignatureResult = { ok: true; signature: ParsedInboundSignature } | { ok: false; error: Exclude<InboundSignatureError, 'mismatch'> };

// Leading zeros are allowed, as both reference libraries parse with parseInt; the signed content
// uses the number, as they do. 15 digits keeps the value a safe integer.
const TIMESTAMP_RE = /^\d{1,15}$/;
const HEX_DIGEST_RE = /^[0-9a-fA-F]{64}$/;
// Standard base64 of 32 bytes: 43 characters and one `=` (accepted without the padding too).
const BASE64_DIGEST_RE = /^[A-Za-z0-9+/]{43}=?$/;
const WEBHOOK_ID_RE = /^[\x20-\x7e]{1,256}$/;
const ENTRY_KEY_RE = /^[A-Za-z0-9_-]+$/;

type Failure = { ok: false; error: Exclude<InboundSignatureError, 'mismatch'> };
const fail = (error: Failure['error']): Failure => ({ ok: false, error });

/** A header value worth reading: a non-blank string (a blank header is as good as none). */
function present(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

/** Clock check in whole seconds, inclusive both ways, as Stripe and Standard Webhooks do it. */
function fresh(timestamp: number, nowMs: number): boolean {
  return Math.abs(Math.floor(nowMs / 1000) - timestamp) <= INBOUND_SIGNATURE_TOLERANCE_SECONDS;
}

function parseServiceSignature(header: string, nowMs: number): ParseInboundSignatureResult {
  if (header.length > MAX_HEADER_LENGTH) return fail('malformed');
  let timestamp: number | null = null;
  let timestamps = 0;
  const signatures: Buffer[] = [];
  let v1Entries = 0;
  for (const raw of header.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue; // a trailing comma is sloppy, not hostile
    const eq = entry.indexOf('=');
    if (eq <= 0) return fail('malformed');
    const key = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim();
    if (!ENTRY_KEY_RE.test(key)) return fail('malformed');
    if (key === 't') {
      timestamps += 1;
      if (!TIMESTAMP_RE.test(value)) return fail('malformed');
      timestamp = Number(value);
    } else if (key === 'v1') {
      v1Entries += 1;
      if (v1Entries > MAX_SIGNATURES || !HEX_DIGEST_RE.test(value)) return fail('malformed');
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Any other scheme (v0, a future v2) is ignored, as Stripe does, so senders can roll forward.
  }
  if (timestamps !== 1 || timestamp === null || signatures.length === 0) return fail('malformed');
  if (!fresh(timestamp, nowMs)) return fail('stale');
  return { ok: true, signature: { scheme: 'v1', timestamp, signatures } };
}

function parseStandardSignature(h: InboundSignatureHeaders, nowMs: number): ParseInboundSignatureResult {
  const header = h.webhookSignature as string;
  if (header.length > MAX_HEADER_LENGTH) return fail('malformed');
  if (!present(h.webhookId) || !present(h.webhookTimestamp)) return fail('malformed');
  const id = h.webhookId.trim();
  const ts = h.webhookTimestamp.trim();
  if (!WEBHOOK_ID_RE.test(id) || !TIMESTAMP_RE.test(ts)) return fail('malformed');
  const signatures: Buffer[] = [];
  for (const entry of header.trim().split(/\s+/)) {
    const comma = entry.indexOf(',');
    if (comma <= 0) return fail('malformed');
    const version = entry.slice(0, comma);
    if (version !== 'v1') continue; // v1a (asymmetric) and future versions: not ours to check
    const value = entry.slice(comma + 1);
    if (signatures.length >= MAX_SIGNATURES || !BASE64_DIGEST_RE.test(value)) return fail('malformed');
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length !== DIGEST_BYTES) return fail('malformed');
    signatures.push(bytes);
  }
  if (signatures.length === 0) return fail('malformed');
  const timestamp = Number(ts);
  if (!fresh(timestamp, nowMs)) return fail('stale');
  return { ok: true, signature: { scheme: 'standard', id, timestamp, signatures } };
}

/**
 * Step 1, before any lookup: header present and well-formed, timestamp within tolerance (both
 * directions, inclusive: |now - t| <= 300 s ok, 301 s stale). X-Service-Signature wins when both
 * families are sent. Never throws.
 */
export function parseInboundSignature(h: InboundSignatureHeaders, nowMs: number): ParseInboundSignatureResult {
  try {
    if (h === null || typeof h !== 'object') return fail('missing');
    if (present(h.serviceSignature)) return parseServiceSignature(h.serviceSignature, nowMs);
    if (present(h.webhookSignature)) return parseStandardSignature(h, nowMs);
    return fail('missing');
  } catch {
    return fail('malformed');
  }
}

function expectedDigest(sig: ParsedInboundSignature, rawBody: Buffer, signingKeyHex: string): Buffer {
  // The body is appended as bytes, never decoded: a re-encoding would change what was signed.
  if (sig.scheme === 'v1') return createHmac('sha256', signingKeyHex).update(`${sig.timestamp}.`).update(rawBody).digest();
  return createHmac('sha256', Buffer.from(signingKeyHex, 'utf8')).update(`${sig.id}.${sig.timestamp}.`).update(rawBody).digest();
}

/**
 * Step 2, once the configuration is known: true when at least one entry matches. Every entry is
 * compared (timing-safe, no early exit), so the time taken does not say which entry matched.
 * A key that is not a SHA-256 hex digest never verifies: it can only be a misconfiguration, and
 * an empty key would be one anybody can sign with.
 */
export function verifyInboundSignature(sig: ParsedInboundSignature, rawBody: Buffer, signingKeyHex: string): boolean {
  try {
    if (typeof signingKeyHex !== 'string' || !/^[0-9a-f]{64}$/.test(signingKeyHex)) return false;
    if (!Buffer.isBuffer(rawBody) || !sig || !Array.isArray(sig.signatures)) return false;
    if (!Number.isSafeInteger(sig.timestamp) || (sig.scheme === 'standard' && typeof sig.id !== 'string')) return false;
    if (sig.scheme !== 'v1' && sig.scheme !== 'standard') return false;
    const expected = expectedDigest(sig, rawBody, signingKeyHex);
    let matched = false;
    for (const given of sig.signatures.slice(0, MAX_SIGNATURES)) {
      const equal = Buffer.isBuffer(given) && given.length === DIGEST_BYTES && timingSafeEqual(given, expected);
      matched = equal || matched;
    }
    return matched;
  } catch {
    return false;
  }
}

/** For our own clients, tests and docs: `t=<unix>,v1=<hex>` over `${t}.${rawBody}`, HMAC-SHA256 keyed by the signing key (the ASCII hex string). */
export function signInboundBody(signingKeyHex: string, timestampSeconds: number, rawBody: Buffer | string): string {
  const hmac = createHmac('sha256', signingKeyHex).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
  return `t=${timestampSeconds},v1=${hmac}`;
}

/** The Standard Webhooks `webhook-signature` value (`v1,<base64>`) over `${id}.${t}.${rawBody}`: for tests and docs. */
export function signInboundBodyStandard(signingKeyHex: string, id: string, timestampSeconds: number, rawBody: Buffer | string): string {
  const hmac = createHmac('sha256', Buffer.from(signingKeyHex, 'utf8')).update(`${id}.${timestampSeconds}.`).update(rawBody).digest('base64');
  return `v1,${hmac}`;
}
