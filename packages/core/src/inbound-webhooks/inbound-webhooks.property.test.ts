import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMapping, MAPPING_FIXED_TARGETS, sanitizeMappedRequest, validateMapping, type CompiledMapping } from './mapping';
import { payloadShape } from './payload-shape';
import { redactInboundHeaders } from './redact-headers';
import { hasUnstorable } from './storable-text';
import { inboundSigningKey, parseInboundSignature, signInboundBody, verifyInboundSignature } from './signature';

/**
 * Everything here runs on what strangers send (headers, bodies) or what customers configure
 * (mappings), so each function is total: any input gives its typed result, never a throw, and
 * what is stored never carries a payload value.
 */

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.anything(),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    '\u0000',
    '',
    'path:__proto__',
    'literal:',
    'json:{',
    '[0]',
    'a..b',
    '9'.repeat(400),
    -0,
    NaN,
    Infinity,
  ),
);

const key = inboundSigningKey('property secret');
const NOW = 1_750_000_000_000;

const targetArb = fc.oneof(
  fc.constantFrom(...MAPPING_FIXED_TARGETS),
  fc.integer({ min: 0, max: 130 }).map((n) => `parameters.body.${n}`),
  fc.constantFrom('__proto__', 'constructor.prototype', 'parameters.__proto__.x', 'toString'),
  fc.string(),
);
const expressionArb = fc.oneof(
  fc.string().map((s) => `path:${s}`),
  fc.string().map((s) => `literal:${s}`),
  fc.jsonValue().map((v) => `json:${JSON.stringify(v)}`),
  fc.stringMatching(/^[a-z$_-]{1,6}(\.[a-z0-9]{1,4}|\[\d\])*$/),
  hostile,
);
const mappingArb = fc.oneof(
  fc.dictionary(targetArb, expressionArb, { maxKeys: 20 }),
  // Mostly-valid mappings, so applying one is exercised as often as refusing one.
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('path:phone', 'phone', 'literal:+15551234567', 'a[0].b'),
        fc.oneof(
          fc.constant({}),
          fc.dictionary(fc.constantFrom(...MAPPING_FIXED_TARGETS), expressionArb, { maxKeys: 3 }),
          fc.dictionary(targetArb, expressionArb, { maxKeys: 3 }),
        ),
      )
      .map(([to, rest]) => ({ ...rest, to, 'parameters.body.1': 'path:x' })),
  },
  hostile,
);
const fixedArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ templateName: 'order_update', templateLocale: 'en' }) },
  fc.record({
    templateName: fc.option(fc.constantFrom('order_update', 'Bad Name', '')),
    templateLocale: fc.option(fc.oneof(fc.constantFrom('en', 'pt_BR'), fc.string())),
  }),
);
const payloadArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      phone: fc.oneof(fc.constant('+44 20 7946 0958'), hostile),
      x: fc.oneof(
        fc.string({ minLength: 1 }).map((s) => `v${s}`),
        hostile,
      ),
      a: hostile,
    }),
  },
  hostile,
);

describe('total functions', () => {
  it('parseInboundSignature and verifyInboundSignature never throw', () => {
    const headerValue = fc.oneof(
      fc.string(),
      fc.constant(undefined),
      fc
        .array(fc.oneof(fc.constantFrom('t', 'v1', 'v0', ' t', 'v1 '), fc.string({ maxLength: 3 })), { maxLength: 12 })
        .chain((keys) =>
          fc
            .tuple(
              ...keys.map(() =>
                fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 }), fc.nat().map(String), fc.string()),
              ),
            )
            .map((vals) => keys.map((k, i) => `${k}=${vals[i]}`).join(',')),
        ),
    );
    fc.assert(
      fc.property(
        fc.record(
          { serviceSignature: headerValue, webhookId: headerValue, webhookTimestamp: headerValue, webhookSignature: headerValue },
          { requiredKeys: [] },
        ),
        fc.oneof(fc.integer(), fc.double()),
        fc.uint8Array({ maxLength: 64 }),
        fc.oneof(fc.constant(key), fc.string()),
        (headers, now, body, k) => {
          const parsed = parseInboundSignature(headers, now);
          if (parsed.ok) {
            expect(['v1', 'standard']).toContain(parsed.signature.scheme);
            expect(parsed.signature.signatures.length).toBeGreaterThan(0);
            expect(parsed.signature.signatures.length).toBeLessThanOrEqual(8);
            expect(typeof verifyInboundSignature(parsed.signature, Buffer.from(body), k)).toBe('boolean');
          } else {
            expect(['missing', 'malformed', 'stale']).toContain(parsed.error);
          }
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(hostile, hostile, hostile, hostile, (h, now, body, k) => {
        const parsed = parseInboundSignature(h as never, now as never);
        expect(typeof parsed.ok).toBe('boolean');
        expect(typeof verifyInboundSignature(h as never, body as never, k as never)).toBe('boolean');
      }),
    );
  });

  it('a signature verifies only over the bytes it was made for', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), fc.integer({ min: -300, max: 300 }), (a, b, skew) => {
        const t = NOW / 1000 + skew;
        const parsed = parseInboundSignature({ serviceSignature: signInboundBody(key, t, Buffer.from(a)) }, NOW);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(verifyInboundSignature(parsed.signature, Buffer.from(a), key)).toBe(true);
        expect(verifyInboundSignature(parsed.signature, Buffer.from(b), key)).toBe(Buffer.from(a).equals(Buffer.from(b)));
      }),
    );
  });

  it('validateMapping and applyMapping never throw and return their typed results', () => {
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(mappingArb, fixedArb, payloadArb, (mapping, fixed, payload) => {
        const v = validateMapping(mapping, fixed);
        outcomes.add(v.ok ? 'valid' : 'invalid');
        if (!v.ok) {
          expect(v.issues.length).toBeGreaterThan(0);
          for (const issue of v.issues) expect(typeof issue.message).toBe('string');
          return;
        }
        const r = applyMapping(v.mapping, payload, fixed);
        outcomes.add(r.ok ? 'applied' : 'refused');
        if (r.ok) {
          expect(r.request.to).toMatch(/^\+[1-9]\d{6,14}$/);
          expect(Array.isArray(r.request.parameters.body)).toBe(true);
        } else {
          expect(r.issues.length).toBeGreaterThan(0);
        }
        const stored = sanitizeMappedRequest(v.mapping, r.ok ? r.request : r.partial);
        expect(typeof stored.to.present).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    expect([...outcomes].sort()).toEqual(['applied', 'invalid', 'refused', 'valid']);
    fc.assert(
      fc.property(hostile, hostile, hostile, (m, payload, fixed) => {
        expect(typeof applyMapping(m as CompiledMapping, payload, fixed as never).ok).toBe('boolean');
        expect(() => sanitizeMappedRequest(m as CompiledMapping, payload as never)).not.toThrow();
      }),
    );
  });

  it('payloadShape and redactInboundHeaders never throw', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const shape = payloadShape(value);
        expect(['object', 'array', 'string', 'number', 'boolean', 'null', 'truncated']).toContain(shape.type);
        expect(() => JSON.stringify(shape)).not.toThrow();
        const headers = redactInboundHeaders(value as never);
        for (const v of Object.values(headers)) expect(typeof v).toBe('string');
        expect(Object.keys(headers).length).toBeLessThanOrEqual(50);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()), fc.constant(undefined))), (headers) => {
        const out = redactInboundHeaders(headers);
        for (const [name, v] of Object.entries(out)) {
          expect(name).toBe(name.toLowerCase());
          expect(v).not.toContain('\u0000');
        }
      }),
    );
  });
});

/** Every key and string of a value bound for jsonb: no NUL, no control character, no unpaired surrogate. */
function unstorable(v: unknown): string[] {
  if (typeof v === 'string') return hasUnstorable(v) ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(unstorable);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [...(hasUnstorable(k) ? [k] : []), ...unstorable(x)]);
  return [];
}

describe('what is stored fits in jsonb', () => {
  const text = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('\u0000', '\ud800', 'a\udc00b', '\t\n', '\u007f'));
  it('issues, sanitized requests, shapes and headers hold no NUL, control character or unpaired surrogate', () => {
    fc.assert(
      fc.property(
        fc.dictionary(text, text, { maxKeys: 8 }),
        fc.jsonValue().chain((j) => fc.dictionary(text, fc.oneof(text, fc.constant(j)), { maxKeys: 8 })),
        (mapping, payload) => {
          const fixed = { templateName: 'order_update', templateLocale: 'en' };
          const v = validateMapping({ ...mapping, to: 'phone' }, fixed);
          expect(unstorable(v)).toEqual([]);
          if (v.ok) {
            const r = applyMapping(v.mapping, payload, fixed);
            expect(unstorable(r.ok ? r : r.issues)).toEqual([]);
            expect(unstorable(sanitizeMappedRequest(v.mapping, r.ok ? r.request : r.partial))).toEqual([]);
          }
          expect(unstorable(payloadShape(payload))).toEqual([]);
          expect(unstorable(payloadShape(mapping))).toEqual([]);
          expect(unstorable(redactInboundHeaders(mapping))).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Recognisable values: long enough to be meaningful, never a key, a path or a rule word. */
const secretValue = fc.string({ minLength: 4, maxLength: 40 }).map((s) => `SECRET<${s}>`);

describe('nothing stored quotes a payload value', () => {
  it('sanitizeMappedRequest and issue messages never contain a payload string', () => {
    const targets = [
      'to',
      'externalId',
      'parameters.header.document.link',
      'parameters.header.document.filename',
      'parameters.body.1',
      'parameters.body.2',
      'parameters.body.3',
    ];
    fc.assert(
      fc.property(
        fc.array(secretValue, { minLength: targets.length, maxLength: targets.length }),
        fc.constantFrom('+', '+44 ', 'tel:', ''),
        fc.constantFrom('https://files.example.com/', 'ftp://x/', ''),
        fc.boolean(),
        (vals, phonePrefix, linkPrefix, nested) => {
          const strings = [...vals];
          // Values that pass their checks, so the success path is covered too.
          strings[0] = `${phonePrefix}447911${String(vals[0]!.length).padStart(6, '0')}`;
          strings[2] = `${linkPrefix}${encodeURIComponent(vals[2]!)}`;
          const data = Object.fromEntries(targets.map((_, i) => [`f${i}`, strings[i]]));
          const payload = nested ? { data: [data] } : data;
          const prefix = nested ? 'data[0].' : '';
          const mapping = Object.fromEntries(targets.map((t, i) => [t, `path:${prefix}f${i}`]));
          const v = validateMapping(mapping, { templateName: 'order_update', templateLocale: 'en' });
          expect(v.ok).toBe(true);
          if (!v.ok) return;
          const r = applyMapping(v.mapping, payload, { templateName: 'order_update', templateLocale: 'en' });
          const stored = JSON.stringify(sanitizeMappedRequest(v.mapping, r.ok ? r.request : r.partial));
          const issues = JSON.stringify(r.ok ? [] : r.issues);
          for (const s of [...strings, strings[0]!.replace(/\D/g, '')]) {
            if (s.length <= 3) continue;
            expect(stored).not.toContain(s);
            expect(issues).not.toContain(s);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('payloadShape never contains a payload string value', () => {
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        secretValue,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (payload) => {
        const text = JSON.stringify(payloadShape(payload));
        const strings: string[] = [];
        const walk = (v: unknown): void => {
          if (typeof v === 'string') strings.push(v);
          else if (Array.isArray(v)) v.forEach(walk);
          else if (v && typeof v === 'object') Object.values(v).forEach(walk);
        };
        walk(payload);
        for (const s of strings) expect(text).not.toContain(s);
        expect(text).not.toContain('SECRET<');
      }),
      { numRuns: 300 },
    );
  });
});
