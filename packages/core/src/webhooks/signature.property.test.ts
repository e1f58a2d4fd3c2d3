import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexString, hostileString, utf16String } from '../testing/hostile-input';
import { signProviderBody, verifyProviderSignature, type SignatureError } from './signature';

/**
 * X-Hub-Signature-256 is checked on every provider delivery before anything else reads it: a
 * header made with the secret over the exact bytes verifies, any other body, secret or digest
 * does not, and no header, body or secret makes verification throw.
 */

const ERRORS: readonly SignatureError[] = ['missing', 'malformed', 'mismatch', 'no_secret'];
const body = fc.uint8Array({ minLength: 1, maxLength: 256 }).map((b) => Buffer.from(b));
const secret = utf16String({ minLength: 1, maxLength: 40 });

describe('verifyProviderSignature is total', () => {
  it('any header, body and secret: a typed result, never a throw', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 128 }).map((b) => Buffer.from(b)),
        fc.oneof(
          hostileString(),
          fc.constant(undefined),
          fc.constant(null),
          hexString(62, 66).map((h) => `sha256=${h}`),
        ),
        fc.oneof(hostileString(), fc.constant(undefined), fc.constant(null)),
        (rawBody, header, s) => {
          const r = verifyProviderSignature({ rawBody, header, secret: s });
          if (r.ok) throw new Error('a header not made with the secret verified');
          expect(ERRORS).toContain(r.error);
          if (!s) expect(r.error).toBe('no_secret');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('signature laws', () => {
  it('a header made with the secret over the bytes verifies, in either hex case and with surrounding blanks', () => {
    fc.assert(
      fc.property(body, secret, fc.boolean(), fc.constantFrom('', ' ', '\t', ' \n'), (rawBody, s, upper, pad) => {
        const header = signProviderBody(s, rawBody);
        expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
        const shown = upper ? `sha256=${header.slice(7).toUpperCase()}` : header;
        expect(verifyProviderSignature({ rawBody, header: `${pad}${shown}${pad}`, secret: s })).toEqual({ ok: true });
      }),
      { numRuns: 200 },
    );
  });

  it('any single-byte change of the body fails as a mismatch', () => {
    fc.assert(
      fc.property(body, secret, fc.nat(), fc.integer({ min: 1, max: 255 }), (rawBody, s, at, delta) => {
        const header = signProviderBody(s, rawBody);
        const changed = Buffer.from(rawBody);
        const i = at % changed.length;
        changed[i] = (changed[i]! + delta) % 256;
        expect(verifyProviderSignature({ rawBody: changed, header, secret: s })).toEqual({ ok: false, error: 'mismatch' });
      }),
      { numRuns: 200 },
    );
  });

  it('any single-character change of the digest fails (mismatch, or malformed when it is no longer hex)', () => {
    fc.assert(
      fc.property(body, secret, fc.integer({ min: 0, max: 63 }), utf16String({ minLength: 1, maxLength: 1 }), (rawBody, s, at, c) => {
        const header = signProviderBody(s, rawBody);
        const digest = header.slice(7);
        fc.pre(c.toLowerCase() !== digest[at]);
        const changed = `sha256=${digest.slice(0, at)}${c}${digest.slice(at + 1)}`;
        const r = verifyProviderSignature({ rawBody, header: changed, secret: s });
        expect(r).toEqual({ ok: false, error: /^[0-9a-fA-F]$/.test(c) ? 'mismatch' : 'malformed' });
      }),
      { numRuns: 200 },
    );
  });

  it('another secret never verifies', () => {
    fc.assert(
      fc.property(body, secret, secret, (rawBody, a, b) => {
        // The key is the secret's UTF-8 bytes (a lone surrogate becomes U+FFFD), and HMAC pads a
        // short key with zeros, so "k" and "k\0" are one key: facts of HMAC and UTF-8, not of this code.
        const key = (s: string) =>
          Buffer.from(s, 'utf8')
            .toString('hex')
            .replace(/(00)+$/, '');
        fc.pre(key(a) !== key(b));
        expect(verifyProviderSignature({ rawBody, header: signProviderBody(a, rawBody), secret: b })).toEqual({ ok: false, error: 'mismatch' });
      }),
      { numRuns: 200 },
    );
  });
});
