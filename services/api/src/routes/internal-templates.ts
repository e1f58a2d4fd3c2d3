import { Router, type RequestHandler } from 'express';
import { AppError, constantTimeEqual, LIMITS, pageQuery, safeString } from '@mos/core';
import { actorOf, jsonBody } from '@mos/http';
import {
  listWorkspaceSyncedTemplates,
  providerTemplateUpsertInput,
  recordProviderTemplate,
  requestTemplateSync,
  scopeOf,
  temporalTemplateSyncStarter,
  type AppDeps,
  type TemplateSyncStarter,
} from '@mos/app';
import { z } from 'zod';

/**
 * Machine-to-machine: `Authorization: Bearer <MOS_SERVICE_TOKEN>`, compared in constant time.
 * With no token configured the routes refuse everyone rather than open up.
 */
function requireServiceToken(deps: AppDeps): RequestHandler {
  return (req, _res, next) => {
    const expected = deps.env.MOS_SERVICE_TOKEN;
    const header = req.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!expected || !presented || !constantTimeEqual(presented, expected)) return next(new AppError('unauthenticated'));
    next();
  };
}

const parse = <S extends z.ZodType>(schema: S, body: unknown): z.infer<S> => {
  const r = schema.safeParse(body);
  if (!r.success) throw new AppError('invalid_request', { message: 'Invalid body', issues: r.error.issues });
  return r.data;
};

/**
 * POST /internal/templates/sync and POST /internal/templates. Mount BEFORE the /internal
 * session guard: these are called by services, not operators, and carry no session.
 */
export function internalTemplateServiceRoutes(deps: AppDeps, options: { startSync?: TemplateSyncStarter } = {}): Router {
  const startSync = options.startSync ?? temporalTemplateSyncStarter(deps);
  const r = Router();
  const guard = [requireServiceToken(deps), ...jsonBody('1mb')];
  r.post('/templates/sync', ...guard, async (req, res) => {
    const { workspaceId } = parse(z.object({ workspaceId: safeString().min(1).max(64) }), req.body);
    res.status(202).json(await requestTemplateSync(deps, workspaceId, startSync));
  });
  r.post('/templates', ...guard, async (req, res) => {
    res.json(await recordProviderTemplate(deps, parse(providerTemplateUpsertInput, req.body)));
  });
  return r;
}

/** GET /internal/templates (synced templates): the session's workspace; page bounds LIMITS.syncedTemplates. */
export function internalTemplateRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/templates', async (req, res) => {
    res.json(await listWorkspaceSyncedTemplates(deps, scopeOf(actorOf(req)), pageQuery(req.query, LIMITS.syncedTemplates)));
  });
  return r;
}
