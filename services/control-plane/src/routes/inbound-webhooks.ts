import { Router } from 'express';
import { LIMITS, enumParam, INBOUND_RUN_STATUSES, pageQuery } from '@mos/core';
import { pathParam } from '@mos/http';
import { uncheckedInput, viaProcedure } from '../via-procedure';
import type { AppDeps } from '@mos/app';

/**
 * Settings, Integrations, Inbound webhooks over REST, each a tRPC procedure underneath.
 * There is deliberately no route to `inboundWebhooks.promote`: enabling a configuration or
 * taking it live is for the CLI and the owner/admin procedure, never the Settings API.
 */
export function inboundWebhookRoutes(deps: AppDeps): Router {
  const r = Router();
  const id = (v: unknown) => ({ id: pathParam(v) });
  r.get(
    '/inbound-webhooks',
    viaProcedure(deps, (c) => c.inboundWebhooks.list()),
  );
  r.post(
    '/inbound-webhooks',
    viaProcedure(deps, (c, req) => c.inboundWebhooks.create(req.body), { status: 201 }),
  );
  r.post(
    '/inbound-webhooks/preview',
    viaProcedure(deps, (c, req) => c.inboundWebhooks.preview(req.body)),
  );
  r.get(
    '/inbound-webhooks/runs/:runId',
    viaProcedure(deps, async (c, req) => ({ run: await c.inboundWebhooks.run({ runId: pathParam(req.params.runId) }) })),
  );
  r.get(
    '/inbound-webhooks/:id',
    viaProcedure(deps, async (c, req) => ({ inboundWebhook: await c.inboundWebhooks.get(id(req.params.id)) })),
  );
  r.patch(
    '/inbound-webhooks/:id',
    viaProcedure(deps, async (c, req) => ({ inboundWebhook: await c.inboundWebhooks.update({ ...req.body, ...id(req.params.id) }) })),
  );
  r.delete(
    '/inbound-webhooks/:id',
    viaProcedure(deps, (c, req) => c.inboundWebhooks.delete(id(req.params.id))),
  );
  r.post(
    '/inbound-webhooks/:id/rotate-secret',
    viaProcedure(deps, (c, req) => c.inboundWebhooks.rotateSecret(id(req.params.id))),
  );
  r.post(
    '/inbound-webhooks/:id/disable',
    viaProcedure(deps, async (c, req) => ({ inboundWebhook: await c.inboundWebhooks.disable(id(req.params.id)) })),
  );
  r.post(
    '/inbound-webhooks/:id/dry-run',
    viaProcedure(deps, async (c, req) => ({ inboundWebhook: await c.inboundWebhooks.dryRun(id(req.params.id)) })),
  );
  r.post(
    '/inbound-webhooks/:id/preview',
    viaProcedure(deps, (c, req) => c.inboundWebhooks.preview(uncheckedInput({ ...req.body, ...id(req.params.id) }))),
  );
  r.get(
    '/inbound-webhooks/:id/runs',
    viaProcedure(deps, (c, req) =>
      c.inboundWebhooks.runs({
        ...id(req.params.id),
        ...pageQuery(req.query, LIMITS.inboundWebhookRuns),
        status: enumParam(req.query.status, 'status', INBOUND_RUN_STATUSES),
        cursor: typeof req.query.cursor === 'string' && req.query.cursor !== '' ? req.query.cursor : undefined,
      }),
    ),
  );
  return r;
}
