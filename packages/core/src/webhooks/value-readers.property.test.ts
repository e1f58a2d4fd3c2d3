import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deeplyNested, hostileValue } from '../testing/hostile-input';
import { resolveIdentity } from './identity';
import { depthAtMost, id, int, isoFromUnix, MAX_VERBATIM_DEPTH, num, providerErrors, verbatim } from './value-readers';

/**
 * The readers every normalizer uses on provider JSON: each returns its typed value or null for
 * any input, timestamps become valid ISO strings that read back as the same second, and
 * verbatim values are depth-bounded however deep the input nests.
 */

const jsonDepth = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(jsonDepth)) : 0);

describe('value readers', () => {
  it('num, int, id, isoFromUnix and providerErrors: typed or null for any value', () => {
    const numbers = fc.oneof(fc.integer(), fc.double(), fc.integer().map(String), fc.double().map(String), fc.stringMatching(/^-?\d{1,20}(\.\d{1,5})?$/));
    fc.assert(
      fc.property(fc.oneof(numbers, hostileValue()), (v) => {
        const n = num(v);
        if (n !== null) expect(Number.isFinite(n)).toBe(true);
        const i = int(v);
        if (i !== null) expect(Number.isSafeInteger(i)).toBe(true);
        const s = id(v);
        if (s !== null) expect(typeof s === 'string' && s !== '').toBe(true);
        const iso = isoFromUnix(v);
        if (iso !== null) {
          expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
          expect(Date.parse(iso) / 1000 === Number(v)).toBe(true);
        }
        for (const e of providerErrors(v)) expect(Number.isSafeInteger(e.code)).toBe(true);
        for (const e of providerErrors([{ code: v, title: v, error_data: { details: v } }])) expect(e.code).toBe(int(v));
      }),
      { numRuns: 300 },
    );
  });

  it('verbatim keeps a value nesting at most 32 levels as itself, and marks a deeper one, at any depth without a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 6 }),
          fc.integer({ min: 0, max: 40 }).map((d) => deeplyNested(d)),
          fc.integer({ min: 15_000, max: 25_000 }).map((d) => deeplyNested(d, 'object')),
        ),
        (v) => {
          const kept = verbatim(v);
          const shallow = depthAtMost(v, MAX_VERBATIM_DEPTH);
          if (shallow) {
            expect(kept).toBe(v);
            expect(jsonDepth(v)).toBeLessThanOrEqual(MAX_VERBATIM_DEPTH);
          } else expect(kept).toEqual({ truncated: `nested deeper than ${MAX_VERBATIM_DEPTH} levels` });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('resolveIdentity: null, or a usable phone or user id, for any contacts, phone and user id', () => {
    fc.assert(
      fc.property(hostileValue(), hostileValue(), hostileValue(), (contacts, phone, userId) => {
        const who = resolveIdentity(contacts, phone, userId);
        if (who === null) return;
        expect(who.waId !== null || who.userId !== null).toBe(true);
        if (who.waId !== null) expect(who.waId).toMatch(/^[1-9]\d{6,14}$/);
        if (who.userId !== null) expect(who.userId.trim()).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});
