import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { isAppError, sha256Hex } from '@mos/core';
import { compatError, receiveCompatCall, type CompatAnswer, type CompatRoute, type AppDeps } from '@mos/app';
import { perSecondLimit, rateLimitStoreOf, readJsonBytes } from '@mos/http';

/**
 * The legacy-compatible paths (docs/compat.md): they keep the shapes external CRMs and
 * automation platforms already send and answer `{status, message, ...}` in every case. The
 * route adapts HTTP only; receiveCompatCall decides. A caller is rate limited by its key (or
 * its address when it sends none) before anything is looked up.
 */
export function compatRoutes(deps: AppDeps): Router {
  const r = Router();
  const limit = deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES;

  // By the caller's key, or its secret, or its address when it sends neither (hashed: no credential as a map key).
  const rateLimit = perSecondLimit({
    name: 'compat',
    store: rateLimitStoreOf(deps),
    points: deps.env.COMPAT_RATE_LIMIT_PER_SECOND,
    keyOf: (req) => {
      const key = req.header('x-api-key');
      const secret = typeof req.query.secret === 'string' ? req.query.secret : undefined;
      return key ? `key:${sha256Hex(key).slice(0, 16)}` : secret ? `secret:${sha256Hex(secret).slice(0, 16)}` : `ip:${req.ip ?? 'unknown'}`;
    },
    refuse: (res) => res.status(429).json({ status: 'error', message: 'Too many requests: slow down' }),
  });

  const handle =
    (routeOf: (req: Request) => CompatRoute): RequestHandler =>
    async (req, res) => {
      let answer: CompatAnswer;
      try {
        answer = await receiveCompatCall(deps, {
          route: routeOf(req),
          headers: req.headers,
          query: { ...req.query },
          requestId: req.requestId,
          // Legacy callers that send no Content-Type at all are read as JSON.
          readBody: () => readJsonBytes(req, res, { limit, allowMissingType: true }),
        });
      } catch (err) {
        // The body reader's refusals (415, 413, 400), in the legacy shape.
        if (isAppError(err)) answer = compatError(err.status, err.message);
        else {
          deps.log.error({ requestId: req.requestId, err }, 'compat call: store failed; answering 503');
          answer = { httpStatus: 503, body: { status: 'error', message: 'Temporarily unavailable: retry later' }, headers: { 'Retry-After': '5' } };
        }
      }
      for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
      res.setHeader('Cache-Control', 'no-store');
      res.status(answer.httpStatus).json({ ...answer.body, requestId: req.requestId });
    };

  const param = (req: Request, name: string): string => {
    const v = req.params[name];
    return Array.isArray(v) ? v.join('/') : typeof v === 'string' ? v : '';
  };

  r.post(
    '/compat/contact',
    rateLimit,
    handle(() => ({ kind: 'contact', route: '/compat/contact' })),
  );
  r.put(
    '/api/v1beta/contact/',
    rateLimit,
    handle(() => ({ kind: 'contact', route: '/api/v1beta/contact/' })),
  );
  r.post(
    '/compat/journey-trigger/*legacyPath',
    rateLimit,
    handle((req) => ({ kind: 'legacy_trigger', route: '/compat/journey-trigger/:legacyPath', legacyPath: param(req, 'legacyPath').replace(/\/+$/, '') })),
  );
  const restTrigger = (withTrigger: boolean) =>
    handle((req) => ({
      kind: 'rest_trigger',
      route: withTrigger
        ? '/webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/:triggerId/'
        : '/webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/',
      organizationId: param(req, 'organizationId'),
      flowId: param(req, 'flowId'),
      triggerId: withTrigger ? param(req, 'triggerId') : null,
    }));
  r.post('/webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/', rateLimit, restTrigger(false));
  r.post('/webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/:triggerId/', rateLimit, restTrigger(true));
  r.post(
    '/api/v0/webhooks/incoming/partner/custom_external_event',
    rateLimit,
    handle(() => ({ kind: 'partner_event', route: '/api/v0/webhooks/incoming/partner/custom_external_event' })),
  );
  // The router's own refusals on these paths (a path segment that is not valid percent-encoding)
  // keep the legacy shape too. Errors raised before this router never reach it (Express skips
  // routers on the error path), so no other surface's error is re-shaped here.
  const legacyRefusal: ErrorRequestHandler = (err: { status?: unknown }, req, res, next) => {
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : undefined;
    if (status === undefined || res.headersSent) return next(err);
    res.setHeader('Cache-Control', 'no-store');
    res.status(status).json({ ...compatError(status, 'Malformed request').body, requestId: req.requestId });
  };
  r.use(legacyRefusal);
  return r;
}
