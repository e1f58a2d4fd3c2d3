import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileBytes, hostileString, TRICKY_STRINGS } from '../testing/hostile-input';
import { decodeContentEncoding } from './content-encoding';

/**
 * The ingress undoes a Content-Encoding before checking the provider's signature. The header is
 * the sender's to choose: only gzip, x-gzip, deflate and br (any case, blanks around) are
 * decoded, identity or none passes the bytes through, and every other value, whatever it is, is
 * `unsupported_encoding`: never a decoded body, never a throw.
 */

const KNOWN = ['gzip', 'x-gzip', 'deflate', 'br'];
const COMPRESS: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, 'x-gzip': gzipSync, deflate: deflateSync, br: brotliCompressSync };
// Names every plain object answers to: a lookup table that is an object literal must not see them.
const INHERITED = Object.getOwnPropertyNames(Object.prototype).flatMap((n) => [n, n.toLowerCase()]);

describe('decodeContentEncoding', () => {
  it('any header value other than a known encoding or identity is unsupported, whatever the bytes', () => {
    fc.assert(
      fc.property(hostileBytes(64), fc.oneof(hostileString(), fc.constantFrom(...INHERITED, ...TRICKY_STRINGS)), (raw, header) => {
        const encoding = header.trim().toLowerCase();
        fc.pre(!KNOWN.includes(encoding));
        const out = decodeContentEncoding(raw, header, 4096);
        // Identity hands back the very buffer received (compared by identity: a deep compare of 200 kB is slow).
        if (encoding === '' || encoding === 'identity') expect(out.ok && !out.decoded && out.bytes === raw).toBe(true);
        else expect(out).toEqual({ ok: false, error: 'unsupported_encoding' });
      }),
      { numRuns: 300 },
    );
  });

  it('every inherited object name is unsupported (a plain-object lookup once decoded "constructor")', () => {
    const raw = Buffer.from('{}');
    for (const name of INHERITED) expect(decodeContentEncoding(raw, name, 4096), name).toEqual({ ok: false, error: 'unsupported_encoding' });
  });

  it('compressed bytes round-trip within the limit, are too_large past it, and any bytes are a typed result', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
        fc.constantFrom(...KNOWN),
        fc.constantFrom('', ' ', '\t'),
        fc.boolean(),
        fc.integer({ min: 1, max: 600 }),
        (plain, encoding, pad, upper, max) => {
          const header = `${pad}${upper ? encoding.toUpperCase() : encoding}${pad}`;
          const out = decodeContentEncoding(COMPRESS[encoding]!(plain), header, max);
          if (plain.length <= max) expect(out.ok && out.decoded && out.bytes.equals(plain)).toBe(true);
          else expect(out).toEqual({ ok: false, error: 'too_large' });
          const corrupt = decodeContentEncoding(plain, header, max);
          expect(corrupt.ok ? corrupt.bytes.length <= max : ['corrupt_encoding', 'too_large'].includes(corrupt.error)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
