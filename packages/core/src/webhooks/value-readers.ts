import type { ProviderError } from './events';

/**
 * Total readers over parsed JSON: each returns the typed value or null, never throws. The
 * normalizer reads provider values with these instead of strict schemas because the provider
 * adds and omits fields without notice, and one odd field must cost only that field, not the
 * message or the change. Reads are own-property only, so a `toString` or `constructor` key
 * that is absent from the JSON is never mistaken for one the provider sent.
 */

export type JsonRecord = Record<string, unknown>;

export function record(v: unknown): JsonRecord | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonRecord) : null;
}

export function get(v: unknown, key: string): unknown {
  const r = record(v);
  return r && Object.hasOwn(r, key) ? r[key] : undefined;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A string with content: the provider's `""` means "not given" (hidden phone numbers, absent emoji). */
export function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function records(v: unknown): JsonRecord[] {
  return list(v).flatMap((x) => {
    const r = record(x);
    return r ? [r] : [];
  });
}

export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** A finite number, or a decimal string of one (the provider quotes some numbers). */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function int(v: unknown): number | null {
  const n = num(v);
  return n !== null && Number.isSafeInteger(n) ? n : null;
}

/** Ids arrive as strings or as JSON integers (template ids); both become strings. */
export function id(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return null;
}

/**
 * 9999-12-30T23:59:59Z. Anything later is not a real provider time, and capping a day short of
 * year 10000 (far below the largest JS Date, 8.64e12 s, past which `new Date` throws) keeps
 * `time + 24 h` (the service window) a valid four-digit-year ISO 8601 string downstream.
 */
const MAX_UNIX_SECONDS = 253_402_214_399;

/** Provider timestamps are unix seconds (strings on messages, integers elsewhere) -> ISO 8601 UTC. */
export function isoFromUnix(v: unknown): string | null {
  const digits = typeof v === 'string' && /^\d{1,12}$/.test(v);
  const integer = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (!digits && !integer) return null;
  const seconds = Number(v);
  return seconds <= MAX_UNIX_SECONDS ? new Date(seconds * 1000).toISOString() : null;
}

/** How deep a value kept verbatim may nest (a scalar is 0, `{}` or `[]` is 1). */
export const MAX_VERBATIM_DEPTH = 32;

/** What a value kept verbatim becomes when it nests deeper than `MAX_VERBATIM_DEPTH`. */
export type TooDeep = { truncated: string };
const TOO_DEEP: TooDeep = { truncated: `nested deeper than ${MAX_VERBATIM_DEPTH} levels` };

/**
 * Whether a parsed JSON value nests at most `max` levels. Iterative and early-exiting: the value
 * may be thousands of levels deep, which is exactly what must not reach a recursive walker.
 */
export function depthAtMost(v: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[v, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return true;
}

/**
 * A provider value kept as it came (account values, contact cards, `other` type objects): the
 * value itself when it nests at most 32 levels, else a marker saying why it is not kept.
 * Downstream, JSON.stringify and the effects' recursive walkers (escapeNul) throw RangeError on
 * values thousands of levels deep, and a thrown RangeError is retried as if transient; no
 * documented provider value comes near 32 levels.
 */
export function verbatim<T>(v: T): T | TooDeep {
  return depthAtMost(v, MAX_VERBATIM_DEPTH) ? v : { ...TOO_DEEP };
}

/**
 * `errors[]` entries (value-, message- and status-level share one shape). Entries without a
 * numeric code are dropped: a code is what every consumer keys on.
 */
export function providerErrors(v: unknown): ProviderError[] {
  return records(v).flatMap((e) => {
    const code = int(get(e, 'code'));
    if (code === null) return [];
    return [
      {
        code,
        title: str(get(e, 'title')),
        message: str(get(e, 'message')),
        details: str(get(get(e, 'error_data'), 'details')),
        href: str(get(e, 'href')),
      },
    ];
  });
}
