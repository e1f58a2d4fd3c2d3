import type { Request, RequestHandler } from 'express';
import { AppError } from '@mos/core';
import { authenticateApiKey, createApiKeyUsageRecorder, type AppDeps, type Scope } from '@mos/app';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by apiKeyAuth on /v1: the key's workspace, the key as actor. */
      apiScope?: Scope;
    }
  }
}

export const API_KEY_HEADER = 'X-API-Key';

const invalidKey = () => new AppError('invalid_api_key', { message: `Send a live API key in the ${API_KEY_HEADER} header` });

/**
 * 401 invalid_api_key unless X-API-Key names a live key. Every request looks the key up by
 * hash (nothing cached), so a revoked key fails on its very next request. The key acts as a
 * `developer` of its workspace, with the key id as actor (what audit entries record).
 */
export function apiKeyAuth(deps: AppDeps): RequestHandler {
  const usage = createApiKeyUsageRecorder(deps);
  return async (req, res, next) => {
    const found = await authenticateApiKey(deps, req.header(API_KEY_HEADER));
    if (!found) throw invalidKey();
    req.apiScope = { workspaceId: found.workspaceId, actorId: found.keyId, role: 'developer' };
    usage.record(found.workspaceId, found.keyId);
    // Answers carry workspace data: no shared cache may keep them.
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/** The scope of a request behind apiKeyAuth (a 401 if the route was mounted without it). */
export function apiScopeOf(req: Request): Scope {
  if (!req.apiScope) throw invalidKey();
  return req.apiScope;
}
