import fc from 'fast-check';

/**
 * Generators of what a stranger can send: any UTF-16 (lone surrogates included), NUL and other
 * control characters, very long text, names that reach an object's prototype, values nested far
 * deeper than any recursive walker survives, and bytes that are not UTF-8. The property tests of
 * every parser and verifier in core draw from these, so "any input" means the same everywhere.
 */

/** Strings that broke or nearly broke something somewhere: each is worth trying on every parser. */
export const TRICKY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff',
  '\ufeff',
  '\u202e',
  '\u2028\u2029',
  '\t\r\n\v\f',
  '\u007f\u0085',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  '9'.repeat(400),
  '%00',
  '%ZZ',
  '\\u0000',
  '{"__proto__":{"x":1}}',
];

/** Built once (200,000 UTF-16 units): long enough that a quadratic reader or an unbounded regex would show in the run time. */
export const HUGE_STRING = 'a\u0000\ud800,='.repeat(40_000);

/**
 * Any sequence of UTF-16 code units: lone surrogates, NUL and control characters included.
 * Drawn unit by unit rather than with fast-check's `unit: 'binary'`, which covers no more for a
 * parser of JS strings and costs seconds to warm up in every test file.
 */
export function utf16String(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), ...constraints });
}

/** Any UTF-16 string, weighted towards the tricky ones; about one draw in ten is the huge one. */
export function hostileString(maxLength = 64): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: utf16String({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY_STRINGS.filter((s) => s.length > 0)), maxLength: 8 }) },
    { weight: 1, arbitrary: fc.constant(HUGE_STRING) },
  );
}

/** A value nested `depth` levels deep, built without recursion (so the generator itself survives). */
export function deeplyNested(depth: number, kind: 'array' | 'object' = 'array', leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i += 1) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** The same as raw JSON text: what a body may hold within a 1 MB limit. */
export function deeplyNestedJson(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Any JS value a caller could hand over: JSON, odd objects (null prototype, boxed, typed arrays, sparse), very deep values. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    {
      weight: 3,
      arbitrary: fc.anything({
        maxDepth: 3,
        withNullPrototype: true,
        withBigInt: true,
        withBoxedValues: true,
        withTypedArray: true,
        withSparseArray: true,
        withDate: true,
        withMap: true,
        withSet: true,
      }),
    },
    { weight: 1, arbitrary: hostileString() },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, NaN, -0, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2, 2n ** 70n, Symbol('s')) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 15_000, max: 25_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([d, k]) => deeplyNested(d, k)),
    },
  );
}

/** Bytes as a body arrives: random, valid UTF-8 JSON, hostile text, invalid UTF-8 sequences, and deep nesting. */
export function hostileBytes(maxLength = 256): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ maxLength }).map((b) => Buffer.from(b)) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((j) => Buffer.from(JSON.stringify(j), 'utf8')) },
    { weight: 1, arbitrary: hostileString(maxLength).map((s) => Buffer.from(s, 'utf8')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from([0xc3, 0x28]),
        Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate: not UTF-8
        Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16 with a BOM
        Buffer.from('\ufeff{}', 'utf8'),
        Buffer.from('{"a":"\\ud800"}'),
        Buffer.from('{"a":1,"a":2}'),
        Buffer.from('{"__proto__":{"polluted":true}}'),
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 15_000, max: 25_000 }).map((d) => Buffer.from(deeplyNestedJson(d, d % 2 ? 'array' : 'object'))) },
  );
}

/** Hex digits of either case, so near-miss digests (63, 64, 65 chars) are drawn often. */
export function hexString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength, maxLength });
}
