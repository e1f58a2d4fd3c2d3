import type { Request, RequestHandler } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { AppError, isAppError } from '@mos/core';
import { unsupportedBody } from '@mos/http';
import { authenticate, tokenFromHeaders, type AppDeps } from '@mos/app';
import { appRouter, toTRPCError } from '@mos/trpc';

/** The same body limit as /api; and one request cannot fan out into hundreds of procedures. */
export const TRPC_MAX_BODY_BYTES = 1024 * 1024;
export const TRPC_MAX_BATCH_SIZE = 20;

/**
 * tRPC also reads multipart and octet-stream bodies (none of our procedures takes one, and a
 * mutation whose input is all optional would run on nothing), and it never decodes a
 * Content-Encoding: both are 415 here, in tRPC's error shape.
 */
function refusedBody(req: Request): AppError | undefined {
  const encoding = req.headers['content-encoding']?.toLowerCase();
  if (encoding && encoding !== 'identity') return new AppError('unsupported_media_type', { message: 'Content-Encoding is not supported here' });
  return unsupportedBody(req);
}

/**
 * The /trpc handler: limits, JSON-only bodies, the caller's session, and 500s logged with their
 * request id. `observeCall` (the process's counters) hears each call's procedure type and code.
 */
export function trpcHandler(deps: AppDeps, observeCall?: (type: string, code: string) => void): RequestHandler {
  return createExpressMiddleware({
    router: appRouter,
    maxBodySize: TRPC_MAX_BODY_BYTES,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    middleware: (req, _res, next) => {
      const refused = refusedBody(req);
      next(refused && toTRPCError(refused));
    },
    createContext: async ({ req }) => {
      try {
        return { deps, actor: await authenticate(deps, tokenFromHeaders(req.headers)), requestId: req.requestId };
      } catch (err) {
        // tRPC would make any throw here a 500; a malformed session cookie is the client's 400.
        throw isAppError(err) ? toTRPCError(err) : err;
      }
    },
    // Runs once per response with every call's result, in call order: the one place that sees successes and failures alike.
    responseMeta: ({ info, data }) => {
      if (observeCall) {
        data.forEach((d, i) => observeCall(info?.calls[i]?.procedure?._def.type ?? 'unknown', 'error' in d ? String(d.error.data.code) : 'OK'));
      }
      return {};
    },
    onError: ({ error, path, req }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        deps.log.error({ err: error.cause ?? error, path, requestId: req.requestId }, 'tRPC procedure failed');
      }
    },
  });
}
