import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue, TRICKY_STRINGS } from '../testing/hostile-input';
import { compileExpression, FORBIDDEN_NAMES, MAX_EXPRESSION_LENGTH, MAX_PATH_SEGMENTS, parsePath, readPath } from './mapping-expressions';

/**
 * Mapping expressions are customer configuration applied to strangers' payloads: a path parses
 * back to the segments it was written from, never holds a prototype name, and reads only the
 * payload's own data; any expression compiles or is refused with a reason that quotes none of it.
 */

const INDEX = /^(?:0|[1-9]\d{0,8})$/;
const name = fc.stringMatching(/^[A-Za-z0-9_$-]{1,12}$/).filter((n) => !INDEX.test(n) && !(FORBIDDEN_NAMES as readonly string[]).includes(n));
const index = fc.integer({ min: 0, max: 999_999_999 });
const segments = fc.array(fc.oneof(name, index), { minLength: 1, maxLength: MAX_PATH_SEGMENTS });

/** Writes segments as a path, each index in dot or bracket form. */
const written = segments.chain((segs) =>
  fc.array(fc.boolean(), { minLength: segs.length, maxLength: segs.length }).map((brackets) => ({
    segs,
    path: segs.map((s, i) => (typeof s === 'number' && brackets[i] ? `[${s}]` : i === 0 ? String(s) : `.${s}`)).join(''),
  })),
);

/** A reference reader: own properties and in-range array elements only. */
function reference(payload: unknown, segs: readonly (string | number)[]): { found: boolean; value?: unknown } {
  let cur = payload;
  for (const s of segs) {
    if (Array.isArray(cur)) {
      if (typeof s !== 'number' || s >= cur.length || !(s in cur)) return { found: false };
      cur = cur[s];
    } else if (cur !== null && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, String(s))) {
      cur = (cur as Record<string, unknown>)[String(s)];
    } else return { found: false };
  }
  return { found: true, value: cur };
}

describe('parsePath', () => {
  it('any written path parses back to its segments, as path: and bare expressions alike', () => {
    fc.assert(
      fc.property(written, ({ segs, path }) => {
        expect(parsePath(path)).toEqual({ ok: true, segments: segs });
        const compiled = compileExpression(`path:${path}`);
        expect(compiled.ok && compiled.expression.kind === 'path' && compiled.expression.segments).toEqual(segs);
      }),
      { numRuns: 300 },
    );
  });

  it('any string: at most 32 segments, no prototype name among them, or a refusal', () => {
    const pathLike = fc
      .array(fc.oneof(name, fc.constantFrom(...FORBIDDEN_NAMES, '.', '[', ']', '[0]', '[01]', '..', ''), hostileString(8)), { maxLength: 40 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(pathLike, hostileString()), (path) => {
        const r = parsePath(path);
        if (!r.ok) {
          expect(typeof r.reason).toBe('string');
          return;
        }
        expect(r.segments.length).toBeGreaterThanOrEqual(1);
        expect(r.segments.length).toBeLessThanOrEqual(MAX_PATH_SEGMENTS);
        for (const s of r.segments) expect(FORBIDDEN_NAMES as readonly unknown[]).not.toContain(s);
      }),
      { numRuns: 300 },
    );
  });
});

describe('compileExpression', () => {
  it('any value: a compiled expression or a reason that quotes none of it', () => {
    const secretExpr = fc
      .tuple(
        fc.constantFrom('', 'path:', 'literal:', 'json:', 'json:"', 'path:a.'),
        fc.stringMatching(/^[A-Za-z]{6,20}$/),
        fc.constantFrom('', '\u0000', '\ud800', '[x]', '..', ' '),
      )
      .map(([prefix, word, suffix]) => ({ expr: `${prefix}SECRET${word}${suffix}`, word }));
    fc.assert(
      fc.property(
        fc.oneof(
          secretExpr,
          hostileValue().map((expr) => ({ expr, word: null })),
        ),
        ({ expr, word }) => {
          const r = compileExpression(expr);
          if (r.ok) {
            expect(typeof expr).toBe('string');
            expect((expr as string).length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
            expect(r.expression.source).toBe(expr);
            if (r.expression.kind === 'literal') expect(r.expression.value).not.toBe('');
          } else if (word !== null) {
            expect(r.reason).not.toContain(word);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('literal: and json: compile to the text they stand for', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 100 }),
        fc.oneof(fc.string({ minLength: 1, maxLength: 50 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean()),
        (text, scalar) => {
          expect(compileExpression(`literal:${text}`)).toEqual({ ok: true, expression: { kind: 'literal', value: text, source: `literal:${text}` } });
          const json = `json:${JSON.stringify(scalar)}`;
          const value = typeof scalar === 'string' ? scalar : String(scalar);
          const compiled = compileExpression(json);
          if (value.includes('\u0000')) expect(compiled.ok).toBe(false);
          else expect(compiled).toEqual({ ok: true, expression: { kind: 'literal', value, source: json } });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readPath reads own data only', () => {
  it('any JSON payload and any segments (its own keys, inherited names, indices): the reference walk, nothing more', () => {
    const inherited = fc.constantFrom('toString', 'constructor', '__proto__', 'length', 'hasOwnProperty', 'valueOf', ...TRICKY_STRINGS);
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(fc.oneof(fc.string({ maxLength: 4 }), inherited, fc.integer({ min: -1, max: 5 })), { maxLength: 5 }),
        (payload, segs) => {
          expect(readPath(payload, segs)).toEqual(reference(payload, segs));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keys only a prototype holds are never read, on objects of any prototype', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }), fc.string({ maxLength: 6 }), (protoData, key) => {
        const payload = Object.create(protoData) as object;
        expect(readPath(payload, [key])).toEqual({ found: false });
        expect(readPath({ a: payload }, ['a', key])).toEqual({ found: false });
      }),
      { numRuns: 200 },
    );
  });
});
