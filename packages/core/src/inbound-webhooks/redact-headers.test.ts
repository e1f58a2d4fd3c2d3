import { describe, expect, it } from 'vitest';
import { redactInboundHeaders } from './redact-headers';
import { signInboundBody } from './signature';

const key = 'a'.repeat(64);

describe('redactInboundHeaders', () => {
  it('keeps descriptive headers, redacts the rest, lower-cases names', () => {
    const sig = signInboundBody(key, 1_750_000_000, '{}');
    const out = redactInboundHeaders({
      'Content-Type': 'application/json',
      'content-length': '2',
      'Content-Encoding': 'gzip',
      'User-Agent': 'crm/1.0',
      'Idempotency-Key': 'evt_1',
      'X-Request-Id': 'req_1',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1750000000',
      Authorization: 'Bearer sk_live_123',
      Cookie: 'session=abc',
      'X-Forwarded-For': '203.0.113.9',
      'X-Service-Signature': sig,
      'set-cookie': ['a=1', 'b=2'],
      absent: undefined,
    });
    expect(out).toEqual({
      'content-type': 'application/json',
      'content-length': '2',
      'content-encoding': 'gzip',
      'user-agent': 'crm/1.0',
      'idempotency-key': 'evt_1',
      'x-request-id': 'req_1',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1750000000',
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-forwarded-for': '[redacted]',
      'x-service-signature': 't=1750000000,v1=[redacted]',
      'set-cookie': '[redacted]',
    });
    const text = JSON.stringify(out);
    for (const secret of ['sk_live_123', 'session=abc', '203.0.113.9', sig.slice(-64)]) expect(text).not.toContain(secret);
  });

  it('summarizes signatures entry by entry', () => {
    expect(redactInboundHeaders({ 'x-service-signature': `t=1, v1=${'b'.repeat(64)} ,v1=${'c'.repeat(64)},v0=dd,t=oops,junk` })).toEqual({
      'x-service-signature': 't=1,v1=[redacted],v1=[redacted],v0=[redacted],t=[redacted],?=[redacted]',
    });
    expect(redactInboundHeaders({ 'webhook-signature': `v1,${'A'.repeat(44)} v1a,${'B'.repeat(86)}` })).toEqual({ 'webhook-signature': '[redacted] x2' });
    const many = redactInboundHeaders({ 'x-service-signature': Array.from({ length: 40 }, () => 'v1=ff').join(',') })['x-service-signature']!;
    expect(many.split(',')).toHaveLength(17);
  });

  it('truncates kept values to 200 characters and strips NULs', () => {
    const out = redactInboundHeaders({ 'user-agent': `a\u0000b${'x'.repeat(500)}`, 'x-request-id': ['r1', 'r2'] });
    expect(out['user-agent']).toBe(`ab${'x'.repeat(198)}`);
    expect(out['x-request-id']).toBe('r1, r2');
  });

  it('stores at most 50 headers', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`x-h${i}`, 'v']));
    const out = redactInboundHeaders(many);
    expect(Object.keys(out)).toHaveLength(50);
    expect(out['x-h49']).toBe('[redacted]');
    expect(out['x-h50']).toBeUndefined();
  });

  it('cannot be polluted by a header named __proto__', () => {
    const headers = JSON.parse('{"__proto__": "x", "Content-Type": "text/plain"}') as Record<string, string>;
    const out = redactInboundHeaders(headers);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'content-type']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('[redacted]');
  });

  it('merges two spellings of one name', () => {
    expect(redactInboundHeaders({ 'X-Request-Id': 'a', 'x-request-id': 'b', Authorization: 'x', authorization: 'y' })).toEqual({
      'x-request-id': 'a, b',
      authorization: '[redacted]',
    });
  });

  it('never throws', () => {
    for (const input of [
      null,
      undefined,
      'x',
      42,
      [],
      { a: 1 },
      { a: [1, 'x'] },
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('x');
          },
        },
      ),
    ]) {
      expect(() => redactInboundHeaders(input as never)).not.toThrow();
    }
    expect(redactInboundHeaders({ a: [1, 'x'] } as never)).toEqual({ a: '[redacted]' });
  });
});
