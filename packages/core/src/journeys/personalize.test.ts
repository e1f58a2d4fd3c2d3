import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_OPERATORS } from './definition';
import { evaluatePropertyCondition, lookupPersonalization, renderParameter, type PersonalizationContext } from './personalize';

const ctx: PersonalizationContext = {
  trigger: {
    first_name: 'Grace',
    coupon: 'WELCOME10',
    total: 12.5,
    count: 0,
    vip: false,
    blank: '   ',
    none: null,
    order: { id: 'ORD-1', total: 42, items: ['a', 'b'], ship: { city: 'Leeds' } },
    'a.b': 'direct',
    a: { b: 'nested' },
    items: ['x', 'y'],
    braces: '{{coupon}}',
    'with-dash': 'dash',
  },
  contact: { name: 'Grace Hopper', plan: 'gold', seats: 3, email: 'g@example.com', address: { city: 'York' }, empty: '' },
};

describe('renderParameter', () => {
  it.each([
    ['Hi {{first_name}}!', 'Hi Grace!'],
    ['Hi {{ first_name }}!', 'Hi Grace!'],
    ['{{first_name}} {{coupon}}', 'Grace WELCOME10'],
    ['Dear {{contact.name}} ({{contact.plan}})', 'Dear Grace Hopper (gold)'],
    ['Order {{order.id}} to {{order.ship.city}}', 'Order ORD-1 to Leeds'],
    ['{{total}} / {{count}} / {{vip}} / {{contact.seats}}', '12.5 / 0 / false / 3'],
    ['{{a.b}}', 'direct'],
    ['{{with-dash}}', 'dash'],
    ['no placeholders at all', 'no placeholders at all'],
    ['', ''],
  ])('renders %j', (text, out) => {
    expect(renderParameter(text, ctx)).toEqual({ ok: true, text: out });
  });

  it('uses the fallback only when the value is missing or blank', () => {
    expect(renderParameter('Hi {{first_name|there}}', ctx)).toEqual({ ok: true, text: 'Hi Grace' });
    expect(renderParameter('Hi {{nickname|there}}', ctx)).toEqual({ ok: true, text: 'Hi there' });
    expect(renderParameter('Hi {{blank|there}}', ctx)).toEqual({ ok: true, text: 'Hi there' });
    expect(renderParameter('Hi {{none|there}}', ctx)).toEqual({ ok: true, text: 'Hi there' });
    expect(renderParameter('Hi {{order|there}}', ctx)).toEqual({ ok: true, text: 'Hi there' });
    expect(renderParameter('Hi {{contact.empty|you}}', ctx)).toEqual({ ok: true, text: 'Hi you' });
    expect(renderParameter('Hi {{contact.nope|dear customer}}!', ctx)).toEqual({ ok: true, text: 'Hi dear customer!' });
    expect(renderParameter('[{{nickname|}}]', ctx)).toEqual({ ok: true, text: '[]' });
    expect(renderParameter('{{nickname|a|b}}', ctx)).toEqual({ ok: true, text: 'a|b' });
  });

  it('reports every missing key once, in order of first use', () => {
    expect(renderParameter('{{b}} {{first_name}} {{a.c}} {{b}}', ctx)).toEqual({ ok: false, missing: ['b', 'a.c'] });
    expect(renderParameter('{{blank}}', ctx)).toEqual({ ok: false, missing: ['blank'] });
    expect(renderParameter('{{none}}', ctx)).toEqual({ ok: false, missing: ['none'] });
  });

  it('renders no objects or arrays, and does not walk into arrays', () => {
    expect(renderParameter('{{order}}', ctx)).toEqual({ ok: false, missing: ['order'] });
    expect(renderParameter('{{items}}', ctx)).toEqual({ ok: false, missing: ['items'] });
    expect(renderParameter('{{items.0}}', ctx)).toEqual({ ok: false, missing: ['items.0'] });
    expect(renderParameter('{{order.items.1}}', ctx)).toEqual({ ok: false, missing: ['order.items.1'] });
  });

  it('reads contact.* from the contact only, one level deep', () => {
    expect(renderParameter('{{contact.first_name}}', ctx)).toEqual({ ok: false, missing: ['contact.first_name'] });
    expect(renderParameter('{{contact.address.city}}', ctx)).toEqual({ ok: false, missing: ['contact.address.city'] });
    expect(renderParameter('{{contact.x}}', { trigger: { contact: { x: 'T' }, 'contact.x': 'T' }, contact: {} })).toEqual({
      ok: false,
      missing: ['contact.x'],
    });
  });

  it('never reads inherited properties', () => {
    for (const key of [
      'toString',
      'constructor',
      '__proto__',
      'hasOwnProperty',
      'first_name.length',
      'order.constructor',
      'contact.toString',
      'contact.__proto__',
    ]) {
      expect(renderParameter(`{{${key}}}`, ctx), key).toEqual({ ok: false, missing: [key] });
    }
  });

  it('does not expand placeholders inside values', () => {
    expect(renderParameter('{{braces}}', ctx)).toEqual({ ok: true, text: '{{coupon}}' });
  });

  it('leaves text that is not a placeholder as it is', () => {
    for (const text of ['{first_name}', '{{ first name }}', '{{}}', '{{first_name', 'first_name}}', '{{a|b}c}}', `{{${'k'.repeat(129)}}}`]) {
      expect(renderParameter(text, ctx), text).toEqual({ ok: true, text });
    }
  });

  it('accepts keys up to 128 characters', () => {
    const key = 'k'.repeat(128);
    expect(renderParameter(`{{${key}}}`, { trigger: { [key]: 'v' }, contact: {} })).toEqual({ ok: true, text: 'v' });
  });
});

describe('lookupPersonalization', () => {
  it('prefers a literal dotted key over a nested path', () => {
    expect(lookupPersonalization(ctx, 'a.b')).toBe('direct');
    expect(lookupPersonalization({ trigger: { a: { b: 'nested' } }, contact: {} }, 'a.b')).toBe('nested');
  });

  it('renders scalars as text and nothing else', () => {
    expect(lookupPersonalization(ctx, 'total')).toBe('12.5');
    expect(lookupPersonalization(ctx, 'vip')).toBe('false');
    expect(lookupPersonalization(ctx, 'none')).toBeUndefined();
    expect(lookupPersonalization(ctx, 'order')).toBeUndefined();
    expect(lookupPersonalization({ trigger: { n: Number.NaN, i: Infinity }, contact: {} }, 'n')).toBeUndefined();
    expect(lookupPersonalization({ trigger: { n: Number.NaN, i: Infinity }, contact: {} }, 'i')).toBeUndefined();
    expect(lookupPersonalization(ctx, 'contact.address')).toBeUndefined();
  });
});

describe('evaluatePropertyCondition', () => {
  it.each([
    // exists / not_exists: a scalar that is not empty text.
    ['gold', 'exists', undefined, true],
    [0, 'exists', undefined, true],
    [false, 'exists', undefined, true],
    ['', 'exists', undefined, false],
    [null, 'exists', undefined, false],
    [undefined, 'exists', undefined, false],
    [{ a: 1 }, 'exists', undefined, false],
    [['gold'], 'exists', undefined, false],
    ['', 'not_exists', undefined, true],
    [undefined, 'not_exists', undefined, true],
    ['x', 'not_exists', undefined, false],
    // equals / not_equals: case-insensitive text comparison.
    ['Gold', 'equals', 'gold', true],
    ['gold', 'equals', 'GOLD', true],
    ['gold', 'equals', 'silver', false],
    [3, 'equals', '3', true],
    [true, 'equals', 'TRUE', true],
    [null, 'equals', '', false],
    [undefined, 'equals', 'gold', false],
    ['', 'equals', undefined, true],
    ['gold', 'not_equals', 'silver', true],
    ['Gold', 'not_equals', 'gold', false],
    [undefined, 'not_equals', 'gold', true],
    [{}, 'not_equals', 'gold', true],
    // contains: case-insensitive substring.
    ['Premium Gold', 'contains', 'gold', true],
    ['gold', 'contains', 'Premium', false],
    [12345, 'contains', '234', true],
    ['anything', 'contains', '', true],
    [undefined, 'contains', '', false],
    [['gold'], 'contains', 'gold', false],
  ] as const)('%j %s %j -> %s', (actual, operator, expected, result) => {
    expect(evaluatePropertyCondition(actual, operator, expected)).toBe(result);
  });

  it('exists and not_exists are opposites, and so are equals and not_equals', () => {
    const actual = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined));
    fc.assert(
      fc.property(actual, fc.option(fc.string({ maxLength: 5 }), { nil: undefined }), (a, e) => {
        expect(evaluatePropertyCondition(a, 'exists', e)).toBe(!evaluatePropertyCondition(a, 'not_exists', e));
        expect(evaluatePropertyCondition(a, 'equals', e)).toBe(!evaluatePropertyCondition(a, 'not_equals', e));
        for (const op of PROPERTY_OPERATORS) expect(typeof evaluatePropertyCondition(a, op, e)).toBe('boolean');
      }),
    );
  });
});

/**
 * Templates built from literal text and placeholders over a context whose values the generator
 * chose: rendering never throws, reports exactly the placeholders with neither a value nor a
 * fallback, and otherwise fills each one with its value (or its fallback) and nothing else.
 */
describe('renderParameter (property)', () => {
  /** Keys the generator may give a value, each with where the value goes in the context. */
  const KEYS = ['first_name', 'coupon', 'order.total', 'order.ship.city', 'contact.name', 'contact.plan', 'x-y_1', 'toString', '__proto__', 'constructor'];
  const raw = fc.oneof(
    fc.string({ maxLength: 8 }).filter((s) => !s.includes('{') && !s.includes('}')),
    fc.constantFrom('', ' ', '\t', 'Ada', '{{coupon}}'),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant({ nested: 'object' }),
    fc.constant(['array']),
  );
  /** What a value renders as; undefined when it does not count as a value. */
  const rendered = (v: unknown): string | undefined => {
    const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    return s !== undefined && s.trim() !== '' ? s : undefined;
  };
  const placeIn = (o: Record<string, unknown>, path: string[], v: unknown) => {
    let cur = o;
    for (const seg of path.slice(0, -1)) {
      if (!Object.prototype.hasOwnProperty.call(cur, seg)) Object.defineProperty(cur, seg, { value: {}, enumerable: true, writable: true, configurable: true });
      cur = cur[seg] as Record<string, unknown>;
    }
    Object.defineProperty(cur, path[path.length - 1]!, { value: v, enumerable: true, writable: true, configurable: true });
  };
  const literal = fc.string({ maxLength: 6 }).filter((s) => !s.includes('{') && !s.includes('}'));
  const placeholder = fc.record({
    key: fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom('missing', 'order.missing', 'contact.missing')),
    fallback: fc.option(fc.string({ maxLength: 6 }).filter((s) => !s.includes('}') && !s.includes('{'))),
    spaced: fc.boolean(),
  });

  it('never throws; ok exactly when every unresolvable placeholder has a fallback; the text is literals plus values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), raw), fc.array(fc.tuple(literal, placeholder), { maxLength: 5 }), literal, (values, parts, tail) => {
        const context: PersonalizationContext = { trigger: {}, contact: {} };
        // Nested keys share objects as parents (order, order.ship) and no key sets a parent to a scalar.
        for (const [k, v] of Object.entries(values)) {
          if (k.startsWith('contact.')) placeIn(context.contact, [k.slice('contact.'.length)], v);
          else placeIn(context.trigger, k.split('.'), v);
        }
        const resolve = (k: string): string | undefined => (Object.prototype.hasOwnProperty.call(values, k) ? rendered(values[k]) : undefined);

        let text = '';
        let expected = '';
        const missing: string[] = [];
        for (const [lit, p] of parts) {
          const ph = p.spaced ? `{{ ${p.key} ${p.fallback !== null ? `|${p.fallback}` : ''}}}` : `{{${p.key}${p.fallback !== null ? `|${p.fallback}` : ''}}}`;
          text += lit + ph;
          const v = resolve(p.key);
          expected += lit;
          if (v !== undefined) expected += v;
          else if (p.fallback !== null) expected += p.fallback.trim();
          else if (!missing.includes(p.key)) missing.push(p.key);
        }
        text += tail;
        expected += tail;

        const r = renderParameter(text, context);
        if (missing.length > 0) expect(r).toEqual({ ok: false, missing });
        else {
          expect(r).toEqual({ ok: true, text: expected });
          // No placeholder is left behind unless a value itself held one.
          if (!Object.values(values).includes('{{coupon}}')) expect(r.ok && r.text.includes('{{')).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('any text and any context: never throws, and a reported key is one that appears in the text', () => {
    const ctxArb = fc.record({
      trigger: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
      contact: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })),
    });
    const textArb = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc
        .array(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('{{', '}}', '|', '.', 'contact.', ' ', 'a', '__proto__')), { maxLength: 12 })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(textArb, ctxArb, (text, context) => {
        const r = renderParameter(text, context);
        if (r.ok) expect(typeof r.text).toBe('string');
        else {
          expect(r.missing.length).toBeGreaterThan(0);
          expect(new Set(r.missing).size).toBe(r.missing.length);
          for (const k of r.missing) {
            expect(text).toContain(k);
            expect(lookupPersonalization(context, k)?.trim() ?? '').toBe('');
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
