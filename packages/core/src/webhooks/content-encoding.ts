import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export type DecodedBody = { ok: true; bytes: Buffer; decoded: boolean } | { ok: false; error: 'corrupt_encoding' | 'unsupported_encoding' | 'too_large' };

const DECODERS: Record<string, (b: Buffer, o: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The payload the provider signed, from the bytes as received: a `Content-Encoding` we know
 * is undone (bounded by `maxBytes`, so a zip bomb is refused, not expanded); identity or no
 * header passes the bytes through. Total: never throws, whatever the bytes. The ingress
 * stores every delivery either way; a body that cannot be decoded is kept as received.
 */
export function decodeContentEncoding(raw: Buffer, header: string | undefined, maxBytes: number): DecodedBody {
  const encoding = (header ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return { ok: true, bytes: raw, decoded: false };
  // Own keys only: `constructor` or `__proto__` would otherwise find Object's own members.
  const decode = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  if (!decode) return { ok: false, error: 'unsupported_encoding' };
  try {
    return { ok: true, bytes: decode(raw, { maxOutputLength: maxBytes }), decoded: true };
  } catch (err) {
    return { ok: false, error: (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'corrupt_encoding' };
  }
}
