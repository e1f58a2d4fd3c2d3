import type { RequestHandler } from 'express';
import { newId } from '@mos/core';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
    }
  }
}

/** A request id for logs and responses; an incoming X-Request-Id is kept when sane. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.header('x-request-id');
  req.requestId = incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : newId('request');
  res.setHeader('X-Request-Id', req.requestId);
  next();
};
