import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeContentEncoding } from './content-encoding';

describe('decodeContentEncoding', () => {
  const json = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it('passes identity through and undoes gzip, deflate and br', () => {
    expect(decodeContentEncoding(json, undefined, 1024)).toEqual({ ok: true, bytes: json, decoded: false });
    expect(decodeContentEncoding(json, 'identity', 1024)).toMatchObject({ ok: true, decoded: false });
    for (const [enc, bytes] of [
      ['gzip', gzipSync(json)],
      ['GZIP', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const out = decodeContentEncoding(bytes, enc, 1024);
      expect(out.ok && out.bytes.equals(json), enc).toBe(true);
    }
  });

  it('a corrupt body, an unknown encoding or a bomb is a typed failure, not a throw', () => {
    expect(decodeContentEncoding(Buffer.from('not gzip at all'), 'gzip', 1024)).toEqual({ ok: false, error: 'corrupt_encoding' });
    expect(decodeContentEncoding(json, 'x-foo', 1024)).toEqual({ ok: false, error: 'unsupported_encoding' });
    expect(decodeContentEncoding(gzipSync(Buffer.alloc(10_000)), 'gzip', 1024)).toEqual({ ok: false, error: 'too_large' });
  });

  it('never throws for any bytes and any of the known encodings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom('gzip', 'deflate', 'br', 'x-gzip', 'weird', ''), (bytes, enc) => {
        const out = decodeContentEncoding(Buffer.from(bytes), enc, 4096);
        expect(typeof out.ok).toBe('boolean');
      }),
    );
  });
});
