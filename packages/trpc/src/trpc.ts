import { initTRPC, TRPCError } from '@trpc/server';
import { AppError, ERROR_STATUS, isAppError, roleAllowed, type ErrorCode, type Role } from '@mos/core';
import { ZodError } from 'zod';
import type { Actor, AppDeps } from '@mos/app';

export interface Context {
  deps: AppDeps;
  actor: Actor | null;
  requestId: string;
}

type AppStatus = (typeof ERROR_STATUS)[ErrorCode];

/**
 * tRPC codes for our HTTP statuses, so a tRPC client sees the same class of failure (and the
 * same HTTP status) as a REST client. Keyed by every status in ERROR_STATUS: a new status
 * there fails to compile until it is mapped here.
 */
const TRPC_CODE: Record<AppStatus, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

export function toTRPCError(err: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[err.status as AppStatus] ?? 'INTERNAL_SERVER_ERROR', message: err.message, cause: err });
}

/** The AppError behind a tRPC error, if any: zod input errors become invalid_request. */
export function appErrorOf(err: unknown): AppError | undefined {
  if (isAppError(err)) return err;
  if (err instanceof TRPCError) {
    if (isAppError(err.cause)) return err.cause;
    if (err.cause instanceof ZodError) {
      return new AppError('invalid_request', { message: 'Invalid input', issues: err.cause.issues });
    }
    if (err.code === 'UNAUTHORIZED') return new AppError('unauthenticated');
    if (err.code === 'FORBIDDEN') return new AppError('forbidden');
    if (err.code === 'NOT_FOUND') return new AppError('not_found', { message: err.message });
  }
  return undefined;
}

/** Our codes for the errors tRPC raises itself (bad JSON, batch too big, body too large, media type). */
const TRPC_APP_CODE: Partial<Record<TRPCError['code'], ErrorCode>> = {
  PARSE_ERROR: 'invalid_request',
  BAD_REQUEST: 'invalid_request',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  TOO_MANY_REQUESTS: 'rate_limited',
  INTERNAL_SERVER_ERROR: 'internal_error',
  SERVICE_UNAVAILABLE: 'service_unavailable',
};

const INTERNAL_ERROR_MESSAGE = 'Internal server error';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const app = appErrorOf(error);
    // A 500 that is not an AppError is an unexpected throw, e.g. a driver error quoting its SQL
    // and parameters: the client gets a generic message, the log (onError) gets the cause.
    const unexpected = !app && error.code === 'INTERNAL_SERVER_ERROR';
    return {
      ...shape,
      message: unexpected ? INTERNAL_ERROR_MESSAGE : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        // Our error code, plus zod issues or provider meta, so UIs branch on codes, not text.
        appCode: app?.code ?? TRPC_APP_CODE[error.code] ?? null,
        issues: app?.issues ?? null,
        meta: app?.meta ?? null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Converts AppErrors thrown by service functions into tRPC errors carrying them. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const { cause } = result.error;
    return { ...result, error: toTRPCError(cause) } as typeof result;
  }
  return result;
});

export const publicProcedure = t.procedure.use(appErrors);

/** A signed-in operator; the context's actor is non-null from here on. */
export const operatorProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw toTRPCError(new AppError('unauthenticated'));
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** The role check is the first thing a guarded procedure does (spec: settings routes). */
export function roleProcedure(allowed: readonly Role[]) {
  return operatorProcedure.use(({ ctx, next }) => {
    if (!roleAllowed(ctx.actor.role, allowed)) {
      throw toTRPCError(new AppError('forbidden', { message: `Requires one of: ${allowed.join(', ')}` }));
    }
    return next();
  });
}

export { ERROR_STATUS };
