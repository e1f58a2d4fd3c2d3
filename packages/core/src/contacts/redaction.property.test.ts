import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileBytes } from '../testing/hostile-input';
import { REDACTED, redactBodyText, redactMessageContent, redactPersonalData } from './redaction';

/**
 * What a viewer sees of stored provider bodies and message content: the JSON keeps its shape,
 * and no string or number survives except under the few operational keys, whatever the body
 * holds, however its keys are spelled; a stored body that is not JSON is hidden whole.
 */

const marker = fc.stringMatching(/^[A-Za-z]{6,16}$/).map((s) => `PII${s}`);
/** Keys a provider body never uses for operational data, plus the prototype names. */
const personalKey = fc.oneof(
  fc.constantFrom('from', 'wa_id', 'body', 'text', 'name', 'latitude', '__proto__', 'constructor', 'toString'),
  fc.stringMatching(/^[a-z_]{1,10}$/),
);
const SHOWN_KEYS = ['object', 'field', 'type', 'status', 'id', 'timestamp', 'code', 'title', 'kind', 'mediaKind', 'mimeType'];

/** A JSON tree whose leaves are markers or numbers under non-operational keys. */
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    marker,
    fc.integer({ min: 100_000, max: 999_999 }),
    fc.constantFrom(true, false, null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.array(fc.tuple(personalKey, tie('node')), { maxLength: 4 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
      return o;
    }),
  ),
})).node;

/** The same value with every string and number replaced: what the redactors must give when no key is operational. */
function shapeOnly(v: unknown): unknown {
  if (typeof v === 'string' || typeof v === 'number') return REDACTED;
  if (Array.isArray(v)) return v.map(shapeOnly);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOnly(x)]));
  return v;
}

describe('viewer redaction', () => {
  it('no value under a non-operational key survives, at any depth, and the shape stays', () => {
    fc.assert(
      fc.property(tree, (value) => {
        fc.pre(!SHOWN_KEYS.some((k) => JSON.stringify(value).includes(`"${k}"`)));
        for (const redact of [redactPersonalData, redactMessageContent]) {
          const out = redact(value);
          expect(out).toEqual(shapeOnly(value));
          expect(JSON.stringify(out) ?? '').not.toMatch(/PII|\d{6}/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('redactBodyText: any stored bytes give redacted JSON text or null, never a throw (25,000 levels deep included)', () => {
    fc.assert(
      fc.property(hostileBytes(), (raw) => {
        const out = redactBodyText(raw);
        if (out === null) return;
        const parsed: unknown = JSON.parse(out);
        expect(parsed).toEqual(redactPersonalData(JSON.parse(raw.toString('utf8'))));
      }),
      { numRuns: 200 },
    );
  });
});
