import type { RequestHandler } from 'express';
import { AppError, roleAllowed, type Role } from '@mos/core';
import { authenticate, tokenFromHeaders, type Actor, type AppDeps } from '@mos/app';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      actor?: Actor;
    }
  }
}

/** 401 unauthenticated unless a live session (bearer token or cookie) is presented. */
export function requireSession(deps: AppDeps): RequestHandler {
  return async (req, _res, next) => {
    try {
      const actor = await authenticate(deps, tokenFromHeaders(req.headers));
      if (!actor) return next(new AppError('unauthenticated'));
      req.actor = actor;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Mount after requireSession; 403 forbidden for a role outside `allowed`. */
export function requireRole(allowed: readonly Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.actor) return next(new AppError('unauthenticated'));
    if (!roleAllowed(req.actor.role, allowed)) return next(new AppError('forbidden', { message: `Requires one of: ${allowed.join(', ')}` }));
    next();
  };
}

/** The actor of a request behind requireSession (throws if mounted wrongly). */
export function actorOf(req: { actor?: Actor }): Actor {
  if (!req.actor) throw new AppError('unauthenticated');
  return req.actor;
}
