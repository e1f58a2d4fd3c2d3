import { Router, type RequestHandler } from 'express';
import { isAppError } from '@mos/core';
import { receiveInboundWebhook, type AppDeps } from '@mos/app';
import { perSecondLimit, rateLimitStoreOf, readJsonBytes } from '@mos/http';

/**
 * POST /api/v1/inbound-webhooks/{slug}: signed webhooks from external systems, mapped to
 * template sends (docs/inbound-webhooks.md). The route adapts HTTP only: raw bytes (the
 * signature covers them exactly), a per-slug rate limit, and 503 when the store fails, so
 * the sender retries. Everything else, in the contract's order, is receiveInboundWebhook's.
 */
export function inboundWebhookRoutes(deps: AppDeps): Router {
  const r = Router();
  const limit = deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES;

  const rateLimit = perSecondLimit({
    name: 'inbound-webhook',
    store: rateLimitStoreOf(deps),
    points: deps.env.INBOUND_WEBHOOK_RATE_LIMIT_PER_SECOND,
    keyOf: (req) => `slug:${String(req.params.slug)}`,
    refuse: (res) => res.status(429).json({ error: 'rate_limited', message: 'Too many requests to this inbound webhook' }),
  });

  const receive: RequestHandler = async (req, res, next) => {
    // As sent (NULs included): the signature check comes before any judgement of the slug.
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    // The JSON routes' rule: application/json in UTF-8, uncompressed, bytes as sent.
    const readBody = () => readJsonBytes(req, res, { limit });
    try {
      const answer = await receiveInboundWebhook(deps, { slug, headers: req.headers, requestId: req.requestId, readBody });
      res.status(answer.status).json(answer.body);
    } catch (err) {
      if (isAppError(err)) return next(err);
      deps.log.error({ requestId: req.requestId, err }, 'inbound webhook: store failed; answering 503');
      res.setHeader('Retry-After', '5');
      res.status(503).json({ error: 'service_unavailable' });
    }
  };

  r.post('/api/v1/inbound-webhooks/:slug', rateLimit, receive);
  return r;
}
