import { describe, expect, it } from 'vitest';
import { payloadShape, type PayloadShape } from './payload-shape';

describe('payloadShape', () => {
  it('describes keys and types, arrays by length and first element', () => {
    const shape = payloadShape({ name: 'Ada', age: 36, vip: false, notes: null, tags: ['x', 'y'], orders: [{ id: 'o1', total: 3 }], empty: [] });
    expect(shape).toEqual({
      type: 'object',
      keys: {
        name: { type: 'string' },
        age: { type: 'number' },
        vip: { type: 'boolean' },
        notes: { type: 'null' },
        tags: { type: 'array', length: 2, items: { type: 'string' } },
        orders: { type: 'array', length: 1, items: { type: 'object', keys: { id: { type: 'string' }, total: { type: 'number' } } } },
        empty: { type: 'array', length: 0 },
      },
    });
    expect(payloadShape('text')).toEqual({ type: 'string' });
    expect(payloadShape([])).toEqual({ type: 'array', length: 0 });
  });

  it('never contains a value', () => {
    const text = JSON.stringify(payloadShape({ phone: '+447911123456', nested: [{ email: 'ada@example.com', n: 123456789 }] }));
    for (const v of ['+447911123456', 'ada@example.com', '123456789']) expect(text).not.toContain(v);
  });

  it('replaces keys that look like personal data by their position', () => {
    const shape = payloadShape({ '+44 7911 123456': 1, 'ada@example.com': 'x', order_12345: true, ok: 1, a1b2c3d4e5f6: 2 });
    expect(shape).toEqual({
      type: 'object',
      keys: {
        '[redacted-key-0]': { type: 'number' },
        '[redacted-key-1]': { type: 'string' },
        order_12345: { type: 'boolean' },
        ok: { type: 'number' },
        '[redacted-key-4]': { type: 'number' },
      },
    });
  });

  it('replaces keys that cannot be stored (NUL, control characters, very long)', () => {
    const shape = payloadShape({ 'a\u0000b': 1, 'line\nbreak': 2, ['k'.repeat(129)]: 3, ['k'.repeat(128)]: 4 });
    expect(Object.keys((shape as { keys: object }).keys)).toEqual(['[invalid-key-0]', '[invalid-key-1]', '[invalid-key-2]', 'k'.repeat(128)]);
  });

  it('keeps a "__proto__" key as data without touching any prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": 1}}') as unknown;
    const shape = payloadShape(parsed) as Extract<PayloadShape, { type: 'object' }>;
    expect(Object.keys(shape.keys)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(shape.keys)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(shape.keys, '__proto__')?.value).toEqual({ type: 'object', keys: { polluted: { type: 'string' } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(shape))).toEqual(
      JSON.parse(
        '{"type":"object","keys":{"__proto__":{"type":"object","keys":{"polluted":{"type":"string"}}},"constructor":{"type":"object","keys":{"prototype":{"type":"number"}}}}}',
      ),
    );
  });

  it('stops at 100 keys per object', () => {
    const wide = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const shape = payloadShape(wide) as Extract<PayloadShape, { type: 'object' }>;
    expect(shape.truncated).toBe(true);
    expect(Object.keys(shape.keys)).toHaveLength(100);
    expect(Object.keys(shape.keys).at(-1)).toBe('k99');
    expect((payloadShape(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]))) as { truncated?: true }).truncated).toBeUndefined();
  });

  it('stops at 8 levels of nesting, even for very deep or cyclic input', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i += 1) deep = { d: deep };
    let shape = payloadShape(deep);
    let levels = 0;
    while (shape.type === 'object') {
      shape = shape.keys.d!;
      levels += 1;
    }
    expect(levels).toBe(8);
    expect(shape).toEqual({ type: 'truncated' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => payloadShape(cyclic)).not.toThrow();
    expect(payloadShape([[[[[[[[['x']]]]]]]]])).toMatchObject({ type: 'array', items: { type: 'array' } });
  });

  it('bounds the work on shared sub-objects', () => {
    let node: unknown = 1;
    for (let i = 0; i < 8; i += 1) {
      const inner = node;
      node = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`k${k}`, inner]));
    }
    const started = Date.now();
    const text = JSON.stringify(payloadShape(node));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text.length).toBeLessThan(1_000_000);
    expect(text).toContain('"truncated"');
  });

  it('never throws on hostile objects', () => {
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    expect(payloadShape(throwing)).toEqual({ type: 'truncated' });
    expect(payloadShape({ a: () => 1, b: Symbol('s'), c: 10n, d: undefined })).toEqual({
      type: 'object',
      keys: { a: { type: 'truncated' }, b: { type: 'truncated' }, c: { type: 'number' }, d: { type: 'null' } },
    });
  });
});
