import { Router } from 'express';
import { LIMITS, pageQuery, SETTINGS_ROLES } from '@mos/core';
import { actorOf, requireRole, pathParam } from '@mos/http';
import {
  getWorkspaceWebhook,
  getWorkspaceWebhookRejection,
  listWorkspaceWebhookDeliveries,
  listWorkspaceWebhookRejections,
  listWorkspaceWebhooks,
  replayWebhook,
  replayWebhookDelivery,
  scopeOf,
  webhooksQuery,
  type AppDeps,
} from '@mos/app';

/**
 * /internal webhook reads and replays (mounted after requireSession): stored webhooks
 * (/webhooks, `evt_`), their deliveries (/webhook-events, `del_`) and rejections. Each route
 * parses its query into typed input and calls the service function its tRPC twin
 * (`webhooks.*`, `webhookDeliveries.*`, `webhookRejections.*`) also calls.
 */
export function internalWebhookRoutes(deps: AppDeps): Router {
  const r = Router();

  r.get('/webhooks', async (req, res) => {
    res.json(await listWorkspaceWebhooks(deps, scopeOf(actorOf(req)), webhooksQuery(req.query)));
  });

  r.get('/webhooks/:id', async (req, res) => {
    res.json(await getWorkspaceWebhook(deps, scopeOf(actorOf(req)), pathParam(req.params.id)));
  });

  r.post('/webhooks/:id/replay', requireRole(SETTINGS_ROLES), async (req, res) => {
    res.status(200).json(await replayWebhook(deps, scopeOf(actorOf(req)), { id: pathParam(req.params.id), requestId: req.requestId }));
  });

  r.get('/webhook-events', async (req, res) => {
    res.json(await listWorkspaceWebhookDeliveries(deps, scopeOf(actorOf(req)), pageQuery(req.query, LIMITS.webhookDeliveries)));
  });

  r.post('/webhook-events/:id/replay', requireRole(SETTINGS_ROLES), async (req, res) => {
    res.status(202).json(await replayWebhookDelivery(deps, scopeOf(actorOf(req)), { id: pathParam(req.params.id), requestId: req.requestId }));
  });

  r.get('/webhook-rejections', async (req, res) => {
    res.json(await listWorkspaceWebhookRejections(deps, scopeOf(actorOf(req)), pageQuery(req.query, LIMITS.webhookRejections)));
  });

  r.get('/webhook-rejections/:id', async (req, res) => {
    res.json(await getWorkspaceWebhookRejection(deps, scopeOf(actorOf(req)), pathParam(req.params.id)));
  });

  return r;
}
