import express, { type Request, type RequestHandler, type Response } from 'express';
import getRawBody from 'raw-body';
import { parse } from 'content-type';
import { AppError } from '@mos/core';

const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Why a request body is unacceptable on a JSON route, if it is. express.json skips other media
 * types, so the route would run as if no body had been sent; and JSON is UTF-8 (RFC 8259), so
 * UTF-7 and the like cannot dodge byte-level checks.
 */
export function unsupportedBody(req: Request): AppError | undefined {
  // req.is() is null without a body; a bodiless POST (Content-Length: 0, no type) is fine too.
  const json = req.is('application/json');
  if (json === null || req.headers['content-length'] === '0') return undefined;
  if (json === false) return new AppError('unsupported_media_type', { message: 'Content-Type must be application/json' });
  // The parser body-parser itself reads the charset with.
  const charset = parse(req.headers['content-type'] ?? '').parameters.charset;
  if (charset !== undefined && !UTF8.has(charset.toLowerCase())) {
    return new AppError('unsupported_media_type', { message: 'Unsupported charset: send UTF-8' });
  }
  return undefined;
}

export const requireJsonBody: RequestHandler = (req, _res, next) => next(unsupportedBody(req));

/** A JSON route's body parsing: JSON or nothing, up to `limit`. */
export const jsonBody = (limit: string): RequestHandler[] => [requireJsonBody, express.json({ limit })];

/**
 * A JSON route's body as the exact bytes sent (a signature covers them; parsers judge them):
 * `application/json` in UTF-8 (415 otherwise; with `allowMissingType`, a request with no
 * Content-Type at all passes), uncompressed (415), at most `limit` bytes (413, and the
 * connection closes rather than reading the rest). Throws the AppError to answer.
 */
export async function readJsonBytes(req: Request, res: Response, opts: { limit: number; allowMissingType?: boolean }): Promise<Buffer> {
  if (!(opts.allowMissingType && req.headers['content-type'] === undefined)) {
    const refused = unsupportedBody(req);
    if (refused) throw refused;
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw new AppError('unsupported_media_type', { message: 'Send the body uncompressed (no Content-Encoding)' });
  }
  try {
    return await getRawBody(req, { limit: opts.limit, length: req.headers['content-length'] });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      res.setHeader('Connection', 'close');
      throw new AppError('payload_too_large', { message: `The body is larger than ${opts.limit} bytes` });
    }
    throw new AppError('invalid_request', { message: 'The body could not be read' });
  }
}
