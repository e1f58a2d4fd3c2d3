import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, isAppError } from '@mos/core';
import type { Logger } from '@mos/config';

/**
 * The one place HTTP errors are rendered. AppErrors answer with their own status and body;
 * body-parser errors keep their meaning (400/413); anything else is a logged 500
 * internal_error, never a stack trace.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let app: AppError;
    if (isAppError(err)) app = err;
    else if (err?.type === 'entity.too.large') app = new AppError('payload_too_large', { message: 'Request body too large' });
    else if (err?.type === 'entity.parse.failed') app = new AppError('invalid_request', { message: 'Body is not valid JSON' });
    else {
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
