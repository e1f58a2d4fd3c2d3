import type { Request, RequestHandler } from 'express';
import { AppError } from '@mos/core';
import { authenticate, tokenFromHeaders, type AppDeps } from '@mos/app';
import { appErrorOf, createCaller } from '@mos/trpc';

export type Caller = ReturnType<typeof createCaller>;

/**
 * Adapts a REST route to a tRPC procedure: the procedure stays the one implementation, and
 * its errors come back as the spec's status codes and bodies through errorHandler.
 */
export function viaProcedure(deps: AppDeps, call: (caller: Caller, req: Request) => Promise<unknown>, options: { status?: number } = {}): RequestHandler {
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

/** Request input is unvalidated by nature; the procedure's zod .input() is what checks it. */
export const uncheckedInput = <T>(v: unknown): T => v as T;
