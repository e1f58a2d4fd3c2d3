import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, isAppError, type ErrorCode } from '@mos/core';
import type { Logger } from '@mos/config';

/** body-parser's error types, in our words (its own messages are not ours to promise). */
const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  'entity.too.large': ['payload_too_large', 'Request body too large'],
  'entity.parse.failed': ['invalid_request', 'Body is not valid JSON'],
  'charset.unsupported': ['unsupported_media_type', 'Unsupported charset: send UTF-8'],
  'encoding.unsupported': ['unsupported_media_type', 'Unsupported Content-Encoding'],
};
const BY_STATUS: Record<number, ErrorCode> = { 413: 'payload_too_large', 415: 'unsupported_media_type' };

/**
 * http-errors from body-parser and the router (a corrupt gzip body, a path that is not valid
 * percent-encoding) carry a 4xx status: the client's fault, so theirs to hear about.
 */
function clientError(err: { status?: unknown; type?: unknown } | undefined): AppError | undefined {
  const status = err?.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  const known = typeof err?.type === 'string' ? BODY_ERRORS[err.type] : undefined;
  if (known) return new AppError(known[0], { message: known[1] });
  return new AppError(BY_STATUS[status] ?? 'invalid_request', { message: 'Malformed request' });
}

/**
 * The one place HTTP errors are rendered. AppErrors answer with their own status and body;
 * client errors raised by Express and body-parser keep their meaning (400/413/415); anything
 * else is a logged 500 internal_error, never a stack trace or a driver's message.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let app = isAppError(err) ? err : clientError(err);
    if (!app) {
      log.error({ err, requestId: req.requestId, path: req.path }, 'unhandled error');
      app = new AppError('internal_error');
    }
    if (res.headersSent) return;
    res.status(app.status).json(app.toBody());
  };
}

/** 404 for unknown paths, in the same body shape. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'not_found' });
};
