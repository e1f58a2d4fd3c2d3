import { Router, type Request, type RequestHandler, type Response } from 'express';
import getRawBody from 'raw-body';
import { constantTimeEqual, type WebhookSource } from '@mos/core';
import { perSecondLimit, rateLimitStoreOf } from '@mos/http';
import {
  createIngressResolver,
  ingestProviderWebhook,
  type AppDeps,
  type IngressMetrics,
  type IngressResolver,
  type IngressRoute,
  type IngressTarget,
} from '@mos/app';

/**
 * Provider webhook ingress: the GET handshake and the two signed POST paths, each shared
 * (`/webhooks/messaging`, resolving to the workspace the platform admin marked) and per
 * workspace (`/webhooks/messaging/{workspaceSlug}`), with the same behaviour and storage.
 * The route only adapts HTTP to the pure verifier/parser (core) and the one-transaction
 * store. Order per POST: count, rate-limit per source (429), resolve the workspace from
 * stored configuration (503 if none, or if the store fails), read the raw bytes up to the
 * body limit (413), store in one transaction (503 if the store fails), answer 200. A 200
 * means "stored".
 */

const SOURCES: Record<string, WebhookSource> = { '/webhooks/messaging': 'messaging', '/webhooks/provider': 'provider' };

function unavailable(res: Response, error: 'service_unavailable' | 'provider_ingress_not_configured') {
  // Providers retry on 5xx; tell well-behaved ones when.
  res.setHeader('Retry-After', '5');
  res.status(503).json({ error });
}

function single(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function routeOf(req: Request): IngressRoute {
  const slug = req.params.workspaceSlug;
  return typeof slug === 'string' ? { kind: 'slug', slug } : { kind: 'shared' };
}

export function webhookIngressRoutes(
  deps: AppDeps,
  metrics: IngressMetrics,
  resolver: IngressResolver = createIngressResolver(deps, deps.env.WEBHOOK_INGRESS_CACHE_MS),
): Router {
  const r = Router();
  const limit = deps.env.WEBHOOK_BODY_LIMIT_BYTES;

  const start: RequestHandler = (_req, res, next) => {
    res.locals.ingressStartedAt = process.hrtime.bigint();
    metrics.inc('received');
    next();
  };

  const limits = new Map<WebhookSource, RequestHandler>();
  const rateLimit = (source: WebhookSource): RequestHandler => {
    // One budget per source path, whatever the workspace (the guard runs before any lookup).
    let handler = limits.get(source);
    if (!handler) {
      handler = perSecondLimit({
        name: 'provider-webhook',
        store: rateLimitStoreOf(deps),
        points: deps.env.WEBHOOK_RATE_LIMIT_PER_SECOND,
        keyOf: () => source,
        refuse: (res) => {
          metrics.inc('rateLimited');
          res.status(429).json({ error: 'rate_limited' });
        },
      });
      limits.set(source, handler);
    }
    return handler;
  };

  /** The target, or an answered 503 (and undefined). An unknown slug answers exactly like "not configured". */
  const resolveOr503 = async (req: Request, res: Response, what: string): Promise<IngressTarget | undefined> => {
    const route = routeOf(req);
    try {
      const target = await resolver.resolve(route);
      if (target) return target;
    } catch (err) {
      metrics.inc('unavailable');
      deps.log.error({ requestId: req.requestId, err }, `${what}: store unavailable (workspace lookup)`);
      unavailable(res, 'service_unavailable');
      return undefined;
    }
    metrics.inc('notConfigured');
    deps.log.warn({ requestId: req.requestId, route: route.kind }, `${what}: no workspace for this path; answering 503`);
    unavailable(res, 'provider_ingress_not_configured');
    return undefined;
  };

  const ingest = (source: WebhookSource) => async (req: Request, res: Response) => {
    const receivedAt = deps.clock.now();
    const target = await resolveOr503(req, res, 'webhook ingress');
    if (!target) return;
    const ws = target.workspaceId;
    metrics.incFor(ws, 'received');
    let rawBody: Buffer;
    try {
      // Raw bytes whatever the Content-Type or Content-Encoding: the store decodes and keeps them.
      // With a Content-Length past the limit this fails before reading a byte.
      rawBody = await getRawBody(req, { limit, length: req.headers['content-length'] });
    } catch (err) {
      if ((err as { type?: string }).type !== 'entity.too.large') {
        deps.log.warn({ requestId: req.requestId, err }, 'webhook body could not be read (client aborted?)');
        if (!res.headersSent) res.status(400).json({ error: 'invalid_request' });
        return;
      }
      metrics.incFor(ws, 'tooLarge');
      deps.log.warn({ requestId: req.requestId, path: req.path, limit }, 'webhook body over limit');
      res.setHeader('Connection', 'close');
      res.status(413).json({ error: 'payload_too_large' });
      return;
    }
    try {
      const outcome = await ingestProviderWebhook(deps, target, {
        source,
        rawBody,
        headers: req.headers,
        query: req.query as Record<string, unknown>,
        requestId: req.requestId,
        receivedAt,
        startedAt: (res.locals.ingressStartedAt as bigint | undefined) ?? process.hrtime.bigint(),
        maxBodyBytes: limit,
      });
      metrics.incFor(ws, outcome.signatureError ? 'rejected' : outcome.duplicate ? 'duplicates' : 'accepted');
      const b = outcome.body;
      const logFields = {
        requestId: req.requestId,
        source,
        webhookEventId: b.webhookEventId,
        topic: outcome.topic,
        signatureError: outcome.signatureError,
        duplicate: outcome.duplicate,
      };
      if (outcome.signatureError) deps.log.warn(logFields, 'webhook stored with invalid signature');
      else deps.log.debug(logFields, 'webhook stored');
      res.status(200).json(b);
    } catch (err) {
      metrics.incFor(ws, 'unavailable');
      deps.log.error({ requestId: req.requestId, source, err }, 'webhook ingress: store failed, nothing committed; answering 503');
      unavailable(res, 'service_unavailable');
    }
  };

  // The handshake shares the messaging bucket: it reads the store, so it must not be a free flood.
  const handshake: RequestHandler = async (req, res) => {
    const mode = single(req.query['hub.mode']);
    const token = single(req.query['hub.verify_token']);
    const challenge = single(req.query['hub.challenge']);
    const fail = () => res.status(400).json({ ok: false, error: 'verification_failed' });
    if (mode !== 'subscribe' || !token || !challenge) return fail();
    let target: IngressTarget | null;
    try {
      target = await resolver.resolve(routeOf(req));
    } catch (err) {
      deps.log.error({ requestId: req.requestId, err }, 'webhook handshake: store unavailable');
      return unavailable(res, 'service_unavailable');
    }
    // An unknown workspace, or one without a verify token, fails like a wrong token: no oracle.
    if (!target) deps.log.warn({ requestId: req.requestId }, 'webhook handshake: no workspace for this path');
    if (!target?.verifyToken || !constantTimeEqual(token, target.verifyToken)) return fail();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type('text/plain').send(challenge);
  };
  r.get('/webhooks/messaging', rateLimit('messaging'), handshake);
  r.get('/webhooks/messaging/:workspaceSlug', rateLimit('messaging'), handshake);

  for (const [path, source] of Object.entries(SOURCES)) {
    r.post(path, start, rateLimit(source), ingest(source));
    r.post(`${path}/:workspaceSlug`, start, rateLimit(source), ingest(source));
  }
  return r;
}
