import type { Request, RequestHandler } from 'express';
import { AppError, refuseNul } from '@mos/core';
import { appErrorOf, authenticate, createCaller, tokenFromHeaders, type AppDeps } from '@mos/trpc';

export type Caller = ReturnType<typeof createCaller>;

/**
 * Adapts a REST route to a tRPC procedure: the procedure stays the one implementation, and
 * its errors come back as the spec's status codes and bodies through errorHandler.
 */
export function viaProcedure(
  deps: AppDeps,
  call: (caller: Caller, req: Request) => Promise<unknown>,
  options: { status?: number } = {},
): RequestHandler {
  return async (req, res, next) => {
    try {
      const actor = req.actor ?? (await authenticate(deps, tokenFromHeaders(req.headers)));
      const caller = createCaller({ deps, actor, requestId: req.requestId });
      const result = await call(caller, req);
      res.status(options.status ?? 200).json(result);
    } catch (err) {
      const app = appErrorOf(err);
      if (app) return next(app);
      deps.log.error({ err, requestId: req.requestId }, 'procedure failed');
      next(new AppError('internal_error'));
    }
  };
}

/**
 * A path parameter as one string (Express 5 types admit arrays for wildcard routes). Ids are
 * opaque, so an absurd one is bounded and then simply not found; a NUL is a 400.
 */
export function pathParam(v: unknown): string {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? refuseNul(s, 'path parameter').slice(0, 256) : '';
}

/** Request input is unvalidated by nature; the procedure's zod .input() is what checks it. */
export const uncheckedInput = <T>(v: unknown): T => v as T;
