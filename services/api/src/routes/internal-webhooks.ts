import { Router } from 'express';
import { enumParam, LIMITS, NORMALIZATION_STATUSES, parseIntParam, SETTINGS_ROLES, WEBHOOK_SOURCES, WEBHOOK_TOPICS } from '@mos/core';
import { actorOf, requireRole, pathParam } from '@mos/http';
import {
  getRejection, getWebhook, listDeliveries, listRejections, listWebhooks, replayDelivery, replayWebhook, scopeOf, type AppDeps,
} from '@mos/app';

/**
 * /internal webhook reads and replays (mounted after requireSession). Each route parses its
 * query into typed input and calls the service function its tRPC twin also calls.
 */
export function internalWebhookRoutes(deps: AppDeps): Router {
  const r = Router();

  r.get('/webhooks', async (req, res) => {
    const q = req.query;
    const input = {
      topic: enumParam(q.topic, 'topic', WEBHOOK_TOPICS),
      status: enumParam(q.status, 'status', NORMALIZATION_STATUSES),
      source: enumParam(q.source, 'source', WEBHOOK_SOURCES),
      limit: parseIntParam(q.limit, LIMITS.webhooks.limit),
      offset: parseIntParam(q.offset, LIMITS.webhooks.offset),
    };
    res.json(await listWebhooks(deps, scopeOf(actorOf(req)), input));
  });

  r.get('/webhooks/:id', async (req, res) => {
    res.json(await getWebhook(deps, scopeOf(actorOf(req)), pathParam(req.params.id)));
  });

  r.post('/webhooks/:id/replay', requireRole(SETTINGS_ROLES), async (req, res) => {
    res.status(200).json(await replayWebhook(deps, scopeOf(actorOf(req)), { id: pathParam(req.params.id), requestId: req.requestId }));
  });

  r.get('/webhook-events', async (req, res) => {
    const limit = parseIntParam(req.query.limit, LIMITS.webhookEvents.limit);
    res.json(await listDeliveries(deps, scopeOf(actorOf(req)), { limit }));
  });

  r.post('/webhook-events/:id/replay', requireRole(SETTINGS_ROLES), async (req, res) => {
    res.status(202).json(await replayDelivery(deps, scopeOf(actorOf(req)), { id: pathParam(req.params.id), requestId: req.requestId }));
  });

  r.get('/webhook-rejections', async (req, res) => {
    const input = {
      limit: parseIntParam(req.query.limit, LIMITS.webhookRejections.limit),
      offset: parseIntParam(req.query.offset, LIMITS.webhookRejections.offset),
    };
    res.json(await listRejections(deps, scopeOf(actorOf(req)), input));
  });

  r.get('/webhook-rejections/:id', async (req, res) => {
    res.json(await getRejection(deps, scopeOf(actorOf(req)), pathParam(req.params.id)));
  });

  return r;
}
