import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from './errors';
import { deeplyNested, hostileValue } from './testing/hostile-input';
import { escapeNul, nulFree, refuseNul } from './text';

/**
 * The NUL guards in front of every text and jsonb column: nulFree answers for any value at any
 * depth (a request body can nest far deeper than a recursive walk survives), refuseNul refuses
 * exactly what nulFree does, with a typed 400, and escapeNul leaves nothing nulFree refuses.
 */

/** The definition, recursively: fine as an oracle on shallow values. */
function hasNulAnywhere(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(hasNulAnywhere);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNulAnywhere(x));
  return false;
}

const withNuls = fc.jsonValue({ maxDepth: 4 }).chain((j) => fc.oneof(fc.constant(j), fc.constant({ [`k\u0000`]: j }), fc.constant([j, { a: [`x\u0000y`] }])));

describe('NUL guards', () => {
  it('nulFree and refuseNul: the definition on any shallow value; refuseNul throws a 400 exactly when nulFree is false', () => {
    fc.assert(
      fc.property(fc.oneof(withNuls, fc.anything({ maxDepth: 3, withNullPrototype: true, withBoxedValues: true })), (v) => {
        expect(nulFree(v)).toBe(!hasNulAnywhere(v));
        let refused: unknown = null;
        try {
          expect(refuseNul(v, 'field')).toBe(v);
        } catch (err) {
          refused = err;
        }
        expect(refused === null).toBe(nulFree(v));
        if (refused !== null)
          expect(isAppError(refused) && refused.code === 'invalid_request' && refused.message === 'field must not contain NUL characters').toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('nulFree answers for values nested 25,000 levels deep and arrays of 200,000 items (it threw RangeError)', () => {
    expect(nulFree(deeplyNested(25_000))).toBe(true);
    expect(nulFree(deeplyNested(25_000, 'object', 'a\u0000'))).toBe(false);
    expect(nulFree(Array.from({ length: 200_000 }, (_, i) => (i === 199_999 ? '\u0000' : 'x')))).toBe(false);
    fc.assert(
      fc.property(hostileValue(), (v) => {
        expect(typeof nulFree(v)).toBe('boolean');
      }),
      { numRuns: 100 },
    );
  });

  it('escapeNul leaves a value nulFree accepts, and changes nothing in one it already accepted', () => {
    fc.assert(
      fc.property(withNuls, (v) => {
        const escaped = escapeNul(v);
        expect(nulFree(escaped)).toBe(true);
        if (nulFree(v)) expect(escaped).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });
});
