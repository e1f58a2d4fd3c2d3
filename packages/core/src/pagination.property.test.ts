import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from './errors';
import { enumParam, LIMITS, pageQuery, pageSchema, parseIntParam, type IntParamRule } from './pagination';
import { deeplyNested, hostileString, hostileValue } from './testing/hostile-input';

/**
 * Page parameters come from query strings and CLI flags. Any value gives the page or a typed
 * 400 (AppError invalid_query naming the parameter, invalid_request for a NUL), never another
 * error and never a clamped number; the refusal names the parameter, not the value. There are
 * no opaque cursors in core: keyset pages take an id (packages/app), bounded by the same rules.
 */

const RULES: IntParamRule[] = Object.values(LIMITS).flatMap((l) => Object.values(l) as IntParamRule[]);
const rule = fc.constantFrom(...RULES);

/** What a query parser hands over: strings, repeated keys (arrays), nested objects, and anything else. */
const queryValue = fc.oneof(
  hostileString(),
  fc.integer().map(String),
  fc.bigInt().map(String),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
  hostileValue(),
);

/** Runs `f`; returns its value, or the AppError's code and message; any other throw fails the test. */
function outcome<T>(f: () => T): { value: T } | { code: string; message: string } {
  try {
    return { value: f() };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { code: err.code, message: err.message };
  }
}

describe('parseIntParam', () => {
  it('an object without a prototype, or nested 25,000 levels deep, is a 400, not a TypeError or RangeError (found by the property below)', () => {
    const rule = LIMITS.contacts.limit;
    expect(outcome(() => parseIntParam(Object.create(null), rule))).toEqual({ code: 'invalid_query', message: 'limit must be an integer between 1 and 200' });
    expect(outcome(() => parseIntParam(deeplyNested(25_000), rule))).toEqual({ code: 'invalid_query', message: 'limit must be an integer between 1 and 200' });
    expect(outcome(() => enumParam(deeplyNested(25_000, 'object', '\u0000'), 'direction', ['inbound']))).toEqual({
      code: 'invalid_request',
      message: 'direction must not contain NUL characters',
    });
  });

  it('any value: an integer within the rule, or a 400 that names the parameter and not the value', () => {
    fc.assert(
      fc.property(queryValue, rule, (raw, r) => {
        const out = outcome(() => parseIntParam(raw, r));
        if ('value' in out) {
          expect(Number.isSafeInteger(out.value)).toBe(true);
          expect(out.value).toBeGreaterThanOrEqual(r.min);
          if (r.max !== undefined) expect(out.value).toBeLessThanOrEqual(r.max);
          return;
        }
        // The whole message is fixed by the rule: nothing of the value can be in it.
        const range = r.max === undefined ? `>= ${r.min}` : `between ${r.min} and ${r.max}`;
        expect([
          { code: 'invalid_query', message: `${r.name} must be an integer ${range}` },
          { code: 'invalid_request', message: `${r.name} must not contain NUL characters` },
        ]).toContainEqual(out);
      }),
      { numRuns: 300 },
    );
  });

  it('the decimal text of an integer reads back as it exactly when it is within the rule; absent or empty is the default', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 1_000 }), fc.constantFrom('', '0', '00'), rule, (n, zeros, r) => {
        const inRange = n >= r.min && (r.max === undefined || n <= r.max);
        const text = n < 0 ? `-${zeros}${-n}` : `${zeros}${n}`;
        const out = outcome(() => parseIntParam(text, r));
        expect(out).toEqual(inRange ? { value: n } : expect.objectContaining({ code: 'invalid_query' }));
        expect(parseIntParam(undefined, r)).toBe(r.default);
        expect(parseIntParam('', r)).toBe(r.default);
      }),
      { numRuns: 300 },
    );
  });
});

describe('enumParam and pageQuery', () => {
  it('enumParam: one of the values, undefined when absent, or a 400 naming the parameter', () => {
    const values = ['inbound', 'outbound', 'failed'] as const;
    fc.assert(
      fc.property(fc.oneof(queryValue, fc.constantFrom(...values)), (raw) => {
        const out = outcome(() => enumParam(raw, 'direction', values));
        if ('value' in out) expect(out.value === undefined ? raw === undefined || raw === '' : values.includes(out.value)).toBe(true);
        else expect(['direction must be one of: inbound, outbound, failed', 'direction must not contain NUL characters']).toContain(out.message);
      }),
      { numRuns: 300 },
    );
  });

  it('pageQuery over strings agrees with pageSchema over numbers, for every list', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(LIMITS)), fc.integer({ min: -5, max: 300 }), fc.integer({ min: -5, max: 300 }), (rules, limit, offset) => {
        const fromQuery = outcome(() => pageQuery({ limit: String(limit), offset: String(offset) }, rules));
        const parsed = pageSchema(rules).safeParse({ limit, offset });
        if (parsed.success) expect(fromQuery).toEqual({ value: parsed.data });
        else expect(fromQuery).toEqual(expect.objectContaining({ code: 'invalid_query' }));
      }),
      { numRuns: 300 },
    );
  });
});
