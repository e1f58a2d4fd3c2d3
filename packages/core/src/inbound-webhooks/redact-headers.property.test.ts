import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { MAX_STORED_HEADERS, redactInboundHeaders } from './redact-headers';
import { hasUnstorable } from './storable-text';

/**
 * Headers stored on an inbound webhook run: no credential, cookie or signature digest survives
 * under any spelling of its name, in a single value or a list, and what is kept is bounded and
 * fits in jsonb.
 */

const KEPT = ['content-type', 'content-length', 'content-encoding', 'user-agent', 'idempotency-key', 'x-request-id', 'webhook-id', 'webhook-timestamp'];
const SECRET_NAMES = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
  'x-service-signature',
  'webhook-signature',
];

/** A recognisable secret: letters after a marker, so no `t=<digits>` entry can carry it. */
const secret = fc.stringMatching(/^[A-Za-z]{8,40}$/).map((s) => `S3CR3T${s}`);
/** Any spelling of a name: each letter in either case. */
const spelling = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((up) => [...name].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

describe('redactInboundHeaders', () => {
  it('a token pasted into x-service-signature keeps no part of it, though it looks like key=value (found by the property below)', () => {
    expect(redactInboundHeaders({ 'x-service-signature': 'c2VjcmV0a2V5MTI=' })).toEqual({ 'x-service-signature': '?=[redacted]' });
    expect(redactInboundHeaders({ 'x-service-signature': 'S3CR3Tabc=S3CR3Tabc,t=1,v1=ab' })).toEqual({
      'x-service-signature': '?=[redacted],t=1,v1=[redacted]',
    });
  });

  it('a secret under any header not kept, in any spelling, alone or in a list, never appears in what is stored', () => {
    const name = fc.oneof(
      fc.constantFrom(...SECRET_NAMES).chain(spelling),
      // Node's parser refuses NUL in a name, so "content-type\0" (stored as content-type) never arrives.
      hostileString(40).filter((n) => !KEPT.includes(n.toLowerCase().replaceAll('\0', ''))),
    );
    const signatureLike = (s: string) =>
      fc.constantFrom(s, `t=1750000000,v1=${s}`, `v1=${s},v1=${s}`, `v1,${s} v1a,${s}`, `${s}=${s}`, `t=${s},v1=${s}`, `Bearer ${s}`);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            name,
            secret.chain((s) => fc.tuple(fc.constant(s), fc.oneof(signatureLike(s), fc.array(signatureLike(s), { minLength: 1, maxLength: 3 })))),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        fc.dictionary(fc.constantFrom(...KEPT), fc.stringMatching(/^[a-z0-9/;= ]{0,30}$/), { maxKeys: 4 }),
        (secrets, kept) => {
          const headers: Record<string, string | string[]> = { ...kept };
          for (const [n, [, v]] of secrets) Object.defineProperty(headers, n, { value: v, enumerable: true, configurable: true, writable: true });
          // The stored values: a generated header name may itself spell part of a secret ("prototype").
          const stored = JSON.stringify(Object.values(redactInboundHeaders(headers)));
          for (const [, [s]] of secrets) expect(stored).not.toContain(s.slice(6));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('any header object: at most 50 lower-cased names, kept values at most 200 characters, nothing unstorable, no throw', () => {
    const value = fc.oneof(hostileString(300), fc.array(hostileString(), { maxLength: 3 }), fc.constant(undefined), hostileValue());
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.oneof(hostileString(40), fc.constantFrom(...KEPT)), value, { maxKeys: 80 }), hostileValue()), (headers) => {
        const out = redactInboundHeaders(headers as Record<string, string>);
        const entries = Object.entries(out);
        expect(entries.length).toBeLessThanOrEqual(MAX_STORED_HEADERS);
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        for (const [n, v] of entries) {
          expect(n).toBe(n.toLowerCase());
          expect(n).not.toBe('');
          expect(hasUnstorable(n) || hasUnstorable(v)).toBe(false);
          if (KEPT.includes(n)) expect([...v].length).toBeLessThanOrEqual(200);
          else if (n === 'x-service-signature') expect(v).toMatch(/^(?:(?:t=\d{1,15}|(?:t|v\d{1,2}|\?)=\[redacted\]|\.\.\.)(?:,|$))*$/);
          else if (n === 'webhook-signature') expect(v).toMatch(/^\[redacted\] x\d+$/);
          else expect(v).toBe('[redacted]');
        }
      }),
      { numRuns: 150 },
    );
  });
});
