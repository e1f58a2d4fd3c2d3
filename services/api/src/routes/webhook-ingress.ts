import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { constantTimeEqual, type WebhookSource } from '@mos/core';
import { findProviderIngressWorkspace } from '@mos/db';
import { createIngressResolver, ingestProviderWebhook, type AppDeps, type IngressMetrics, type IngressResolver } from '@mos/trpc';

/**
 * Provider webhook ingress: GET handshake and the two signed POST paths. The route only
 * adapts HTTP to the pure verifier/parser (core) and the one-transaction store (trpc
 * service). Order per POST: count, rate-limit per source (429), read raw bytes up to the
 * body limit (413), resolve the workspace from stored configuration (503 if none), store
 * in one transaction (503 if the store fails), answer 200. A 200 means "stored".
 */

const SOURCES: Record<string, WebhookSource> = { '/webhooks/messaging': 'messaging', '/webhooks/provider': 'provider' };

/** The innermost driver message and code, never the failed query's parameters (raw bodies, headers). */
function describeError(err: unknown): { code?: string; message: string } {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  const code = (e as { code?: unknown })?.code;
  return { ...(typeof code === 'string' ? { code } : {}), message: e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e) };
}

function unavailable(res: Response, error: 'service_unavailable' | 'provider_ingress_not_configured') {
  // Providers retry on 5xx; tell well-behaved ones when.
  res.setHeader('Retry-After', '5');
  res.status(503).json({ error });
}

function single(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function webhookIngressRoutes(deps: AppDeps, metrics: IngressMetrics, resolver: IngressResolver = createIngressResolver(deps, deps.env.WEBHOOK_INGRESS_CACHE_MS)): Router {
  const r = Router();
  const limiter = new RateLimiterMemory({ points: deps.env.WEBHOOK_RATE_LIMIT_PER_SECOND, duration: 1 });

  const start: RequestHandler = (_req, res, next) => {
    res.locals.ingressStartedAt = process.hrtime.bigint();
    metrics.inc('received');
    next();
  };

  const rateLimit = (source: WebhookSource): RequestHandler => async (_req, res, next) => {
    try {
      await limiter.consume(source);
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return next(err);
      metrics.inc('rateLimited');
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      res.status(429).json({ error: 'rate_limited' });
    }
  };

  // Any content type: the bytes are stored and signed as sent; parsing is ours, not body-parser's.
  const rawBody = express.raw({ type: () => true, limit: deps.env.WEBHOOK_BODY_LIMIT_BYTES });

  const tooLarge: ErrorRequestHandler = (err, req, res, next) => {
    if (err?.type !== 'entity.too.large') return next(err);
    metrics.inc('tooLarge');
    deps.log.warn({ requestId: req.requestId, path: req.path, limit: deps.env.WEBHOOK_BODY_LIMIT_BYTES }, 'webhook body over limit');
    res.setHeader('Connection', 'close');
    res.status(413).json({ error: 'payload_too_large' });
  };

  const ingest = (source: WebhookSource) => async (req: Request, res: Response) => {
    const receivedAt = deps.clock.now();
    let target;
    try {
      target = await resolver.resolve();
    } catch (err) {
      metrics.inc('unavailable');
      deps.log.error({ requestId: req.requestId, cause: describeError(err) }, 'webhook ingress: store unavailable (workspace lookup)');
      return unavailable(res, 'service_unavailable');
    }
    if (!target) {
      metrics.inc('notConfigured');
      deps.log.error({ requestId: req.requestId, source }, 'webhook ingress: no provider ingress workspace configured; answering 503');
      return unavailable(res, 'provider_ingress_not_configured');
    }
    try {
      const outcome = await ingestProviderWebhook(deps, target, {
        source,
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        headers: req.headers,
        query: req.query as Record<string, unknown>,
        requestId: req.requestId,
        receivedAt,
        startedAt: (res.locals.ingressStartedAt as bigint | undefined) ?? process.hrtime.bigint(),
      });
      metrics.inc(outcome.signatureError ? 'rejected' : outcome.duplicate ? 'duplicates' : 'accepted');
      const b = outcome.body;
      const logFields = { requestId: req.requestId, source, webhookEventId: b.webhookEventId, topic: outcome.topic, signatureError: outcome.signatureError, duplicate: outcome.duplicate };
      if (outcome.signatureError) deps.log.warn(logFields, 'webhook stored with invalid signature');
      else deps.log.debug(logFields, 'webhook stored');
      res.status(200).json(b);
    } catch (err) {
      metrics.inc('unavailable');
      deps.log.error({ requestId: req.requestId, source, cause: describeError(err) }, 'webhook ingress: store failed, nothing committed; answering 503');
      unavailable(res, 'service_unavailable');
    }
  };

  // The handshake shares the messaging bucket: it reads the store, so it must not be a free flood.
  r.get('/webhooks/messaging', rateLimit('messaging'), async (req, res) => {
    const mode = single(req.query['hub.mode']);
    const token = single(req.query['hub.verify_token']);
    const challenge = single(req.query['hub.challenge']);
    const fail = () => res.status(400).json({ ok: false, error: 'verification_failed' });
    if (mode !== 'subscribe' || !token || !challenge) return fail();
    let expected: string | undefined;
    try {
      const ws = await findProviderIngressWorkspace(deps.db);
      if (!ws) deps.log.warn({ requestId: req.requestId }, 'webhook handshake: no provider ingress workspace configured');
      expected = ws ? await deps.vault.get(deps.db, ws.id, 'provider-verify-token') : undefined;
    } catch (err) {
      deps.log.error({ requestId: req.requestId, cause: describeError(err) }, 'webhook handshake: store unavailable');
      return unavailable(res, 'service_unavailable');
    }
    if (!expected || !constantTimeEqual(token, expected)) return fail();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('text/plain').send(challenge);
  });

  for (const [path, source] of Object.entries(SOURCES)) {
    r.post(path, start, rateLimit(source), rawBody, ingest(source), tooLarge);
  }
  return r;
}
