import express, { type Request, type RequestHandler } from 'express';
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
