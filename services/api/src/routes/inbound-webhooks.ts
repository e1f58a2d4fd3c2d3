import { Router, type RequestHandler } from 'express';
import getRawBody from 'raw-body';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, isAppError } from '@mos/core';
import { receiveInboundWebhook, type AppDeps } from '@mos/app';
import { unsupportedBody } from '@mos/http';

/**
 * POST /api/v1/inbound-webhooks/{slug}: signed webhooks from external systems, mapped to
 * template sends (docs/inbound-webhooks.md). The route adapts HTTP only: raw bytes (the
 * signature covers them exactly), a per-slug rate limit, and 503 when the store fails, so
 * the sender retries. Everything else, in the contract's order, is receiveInboundWebhook's.
 */
export function inboundWebhookRoutes(deps: AppDeps): Router {
  const r = Router();
  const limit = deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES;
  const limiter = new RateLimiterMemory({ points: deps.env.INBOUND_WEBHOOK_RATE_LIMIT_PER_SECOND, duration: 1 });

  const rateLimit: RequestHandler = async (req, res, next) => {
    try {
      await limiter.consume(`slug:${String(req.params.slug)}`);
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return next(err);
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      res.status(429).json({ error: 'rate_limited', message: 'Too many requests to this inbound webhook' });
    }
  };

  const receive: RequestHandler = async (req, res, next) => {
    // As sent (NULs included): the signature check comes before any judgement of the slug.
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    const readBody = async (): Promise<Buffer> => {
      // The JSON routes' rule: application/json in UTF-8 (415 otherwise), so bytes are read as sent.
      const refused = unsupportedBody(req);
      if (refused) throw refused;
      const encoding = req.headers['content-encoding'];
      if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
        throw new AppError('unsupported_media_type', { message: 'Send the body uncompressed (no Content-Encoding)' });
      }
      try {
        return await getRawBody(req, { limit, length: req.headers['content-length'] });
      } catch (err) {
        if ((err as { type?: string }).type === 'entity.too.large') {
          res.setHeader('Connection', 'close');
          throw new AppError('payload_too_large', { message: `The body is larger than ${limit} bytes` });
        }
        throw new AppError('invalid_request', { message: 'The body could not be read' });
      }
    };
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
