import { storableText } from './storable-text';

/**
 * Request headers as a run stores them: enough to debug a sender's integration (what it sent,
 * which signature scheme and timestamp, how many signatures) without keeping credentials,
 * cookies or anything a sender's proxy may have added about the end user.
 */

const REDACTED = '[redacted]';
export const MAX_STORED_HEADERS = 50;
const MAX_VALUE_CHARS = 200;
const MAX_NAME_CHARS = 128;
const MAX_SIGNATURE_ENTRIES = 16;

/** Headers whose values describe the request, not a person or a credential. */
const KEPT = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'user-agent',
  'idempotency-key',
  'x-request-id',
  'webhook-id',
  'webhook-timestamp',
]);

/** `t=<t>,v1=[redacted]`, one item per entry: the timestamp helps debug a clock skew, the digests help nobody. */
function redactServiceSignature(value: string): string {
  const out: string[] = [];
  for (const raw of value.slice(0, 4096).split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (out.length === MAX_SIGNATURE_ENTRIES) {
      out.push('...');
      break;
    }
    const eq = entry.indexOf('=');
    const key = eq > 0 ? entry.slice(0, eq).trim() : '';
    // Only scheme names are shown (t, v0, v1, ...): anything else before an `=` may be the secret
    // itself, as when a base64 token with its `=` padding is pasted into this header.
    const scheme = /^(?:t|v\d{1,2})$/.test(key) ? key : '?';
    const v = eq > 0 ? entry.slice(eq + 1).trim() : '';
    out.push(scheme === 't' && /^\d{1,15}$/.test(v) ? `t=${v}` : `${scheme}=${REDACTED}`);
  }
  return out.join(',');
}

function countEntries(value: string): number {
  return value
    .slice(0, 4096)
    .split(/\s+/)
    .filter((e) => e !== '').length;
}

function define(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Headers as stored on a run: names lower-cased; values kept only for content-type,
 * content-length, content-encoding, user-agent, idempotency-key, x-request-id, webhook-id,
 * webhook-timestamp (each truncated to 200 chars, NULs stripped, other control characters as `?`); x-service-signature ->
 * `t=<t>,v1=[redacted]` (one per entry, t kept), webhook-signature -> `[redacted] x<n>`; every
 * other header's value -> '[redacted]'. At most 50 headers. Never throws.
 */
export function redactInboundHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    if (headers === null || typeof headers !== 'object') return out;
    let stored = 0;
    for (const rawName of Object.keys(headers)) {
      const rawValue: unknown = Object.getOwnPropertyDescriptor(headers, rawName)?.value;
      const parts = Array.isArray(rawValue) ? rawValue.filter((v): v is string => typeof v === 'string') : typeof rawValue === 'string' ? [rawValue] : [];
      if (parts.length === 0) continue;
      const name = storableText(rawName.toLowerCase(), MAX_NAME_CHARS);
      if (name === '') continue;
      const joined = parts.join(', ');
      let value: string;
      if (KEPT.has(name)) value = storableText(joined, MAX_VALUE_CHARS);
      else if (name === 'x-service-signature') value = redactServiceSignature(joined);
      else if (name === 'webhook-signature') value = `${REDACTED} x${countEntries(joined)}`;
      else value = REDACTED;
      // Two spellings of one name (a hand-built object; Node lower-cases) share one slot: a kept
      // value gets both, truncated again; a redacted one says nothing more the second time.
      if (Object.hasOwn(out, name)) {
        if (KEPT.has(name)) define(out, name, storableText(`${out[name]}, ${value}`, MAX_VALUE_CHARS));
        continue;
      }
      if (stored === MAX_STORED_HEADERS) break;
      stored += 1;
      define(out, name, value);
    }
  } catch {
    // What was stored so far stands; a header object that throws on reading has nothing more to give.
  }
  return out;
}
