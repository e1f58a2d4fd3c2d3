import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProviderEnvelope } from './envelope';
import { normalizeEnvelope } from './normalize';

/**
 * The normalizer is total: whatever a stored delivery holds, it returns events and skips,
 * never throws (a throw would be retried forever by the worker). Inputs are the fixtures
 * with any leaf replaced by arbitrary JSON, and wholly arbitrary change values.
 */
const FIXTURES = new URL('./fixtures/', import.meta.url);
const load = (f: string) => JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8'));
const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map(load);

type Json = unknown;
function leafPaths(v: Json, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leafPaths(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leafPaths(x, [...path, k]));
  return [path];
}
function replaceAt(v: Json, path: (string | number)[], leaf: Json): Json {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[head!] = replaceAt(copy[head!], rest, leaf);
  return copy;
}

const hostileLeaf = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('99999999999999999999', '-1', '1e309', 'NaN', '', '\u0000', '9'.repeat(400), -1, 1e308, Number.MAX_SAFE_INTEGER),
);

describe('normalizeEnvelope is total', () => {
  it('any fixture with any one leaf replaced: no throw', () => {
    const cases = fixtures.flatMap((f) => leafPaths(f).map((p) => [f, p] as const));
    fc.assert(
      fc.property(fc.constantFrom(...cases), hostileLeaf, ([fixture, path], leaf) => {
        const mutated = replaceAt(fixture, path, leaf);
        const parsed = parseProviderEnvelope(Buffer.from(JSON.stringify(mutated)));
        if (parsed.ok) expect(() => normalizeEnvelope(parsed.envelope)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('arbitrary change values under the fields it knows: no throw', () => {
    const field = fc.constantFrom('messages', 'message_template_status_update', 'account_update', 'x');
    fc.assert(
      fc.property(fc.array(fc.record({ field, value: fc.jsonValue() }), { maxLength: 4 }), (changes) => {
        expect(() => normalizeEnvelope({ entry: [{ id: '1', changes }] })).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });

  it('the timestamp that used to throw RangeError is now an unreadable value', () => {
    const inbound = load('inbound-text.json');
    inbound.entry[0].changes[0].value.messages[0].timestamp = '99999999999999999999';
    const out = normalizeEnvelope(inbound);
    expect(out.events).toEqual([]);
    expect(out.skipped).toMatchObject([{ field: 'messages', reason: 'invalid_value' }]);
  });
});
