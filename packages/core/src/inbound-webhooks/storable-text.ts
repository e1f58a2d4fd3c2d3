/**
 * Text that ends up in a run's jsonb columns. PostgreSQL refuses U+0000 and unpaired UTF-16
 * surrogates in jsonb, and both are easy to send (`"\u0000"`, `"\ud800"` in a JSON key), so
 * anything quoted from a request is made storable here rather than failing the insert as a 500.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** No NUL and no unpaired surrogate: what any text bound for a database (or a provider's JSON) needs. */
export function isWellFormedText(s: string): boolean {
  LONE_SURROGATE.lastIndex = 0;
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** Control characters (NUL included) or an unpaired surrogate: text to replace rather than store. */
export function hasUnstorable(s: string): boolean {
  for (let i = 0; i < s.length; i += 1) {
    const code = s.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(s);
}

/** At most `max` code points, NULs dropped, control characters as `?`, unpaired surrogates as U+FFFD. */
export function storableText(s: string, max: number): string {
  const cut = [...s.replaceAll('\u0000', '').slice(0, max * 2)].slice(0, max).join('');
  let out = '';
  for (const c of cut.replace(LONE_SURROGATE, '\uFFFD')) {
    const code = c.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? '?' : c;
  }
  return out;
}
