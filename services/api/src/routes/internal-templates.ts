import { Router, type RequestHandler } from 'express';
import { Client, Connection } from '@temporalio/client';
import { AppError, constantTimeEqual, LIMITS, parseIntParam, safeString } from '@mos/core';
import type { Env } from '@mos/config';
import { getWorkspace } from '@mos/db';
import { actorOf, jsonBody } from '@mos/http';
import { listSyncedTemplatesPage, providerTemplateUpsertInput, recordProviderTemplate, scopeOf, type AppDeps } from '@mos/trpc';
import { TEMPLATE_SYNC_WORKFLOW_TYPE, templateSyncWorkflowId } from '@mos/workflows';
import { z } from 'zod';

export type TemplateSyncStarter = (workspaceId: string) => Promise<{ workflowId: string; runId: string }>;

/** Starts `templateSync` on Temporal; one lazily opened connection per process, never per request. */
export function temporalTemplateSyncStarter(env: Pick<Env, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE'>): TemplateSyncStarter {
  let client: Promise<Client> | null = null;
  return async (workspaceId) => {
    client ??= Connection.connect({ address: env.TEMPORAL_ADDRESS, connectTimeout: '5 seconds' }).then(
      (connection) => new Client({ connection, namespace: env.TEMPORAL_NAMESPACE }),
      (err: unknown) => {
        client = null;
        throw err;
      },
    );
    const handle = await (await client).workflow.start(TEMPLATE_SYNC_WORKFLOW_TYPE, {
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      workflowId: templateSyncWorkflowId(workspaceId),
      args: [{ workspaceId }],
      // A sync already running for this workspace absorbs the request instead of failing it.
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
  };
}

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
  const startSync = options.startSync ?? temporalTemplateSyncStarter(deps.env);
  const r = Router();
  const guard = [requireServiceToken(deps), ...jsonBody('1mb')];
  r.post('/templates/sync', ...guard, async (req, res) => {
    const { workspaceId } = parse(z.object({ workspaceId: safeString().min(1).max(64) }), req.body);
    if (!(await getWorkspace(deps.db, workspaceId))) throw new AppError('not_found', { message: 'workspace not found' });
    let started;
    try {
      started = await startSync(workspaceId);
    } catch (err) {
      deps.log.error({ err, workspaceId }, 'could not start template sync');
      throw new AppError('service_unavailable', { message: 'Temporal is unavailable; try again' });
    }
    res.status(202).json({ accepted: true, ...started });
  });
  r.post('/templates', ...guard, async (req, res) => {
    res.json(await recordProviderTemplate(deps, parse(providerTemplateUpsertInput, req.body)));
  });
  return r;
}

/** GET /internal/templates: the session's workspace; limit 1..200 (50), offset >= 0 (0). */
export function internalTemplateRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/templates', async (req, res) => {
    const limit = parseIntParam(req.query.limit, LIMITS.templates.limit);
    const offset = parseIntParam(req.query.offset, LIMITS.templates.offset);
    res.json(await listSyncedTemplatesPage(deps, scopeOf(actorOf(req)), { limit, offset }));
  });
  return r;
}
