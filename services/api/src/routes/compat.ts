import { Router, type Request, type RequestHandler } from 'express';
import getRawBody from 'raw-body';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { sha256Hex } from '@mos/core';
import { receiveCompatCall, type CompatAnswer, type CompatRoute, type AppDeps } from '@mos/app';
import { unsupportedBody } from '@mos/http';

/** An answer the body reader gives instead of a body (415, 413, 400). */
class BodyRefused extends Error {
  constructor(readonly answer: CompatAnswer) {
    super(answer.body.message);
  }
}

const refuse = (httpStatus: number, message: string, headers?: Record<string, string>) =>
  new BodyRefused({ httpStatus, body: { status: 'error', message }, ...(headers ? { headers } : {}) });

/**
 * The legacy-compatible paths (docs/compat.md): they keep the shapes external CRMs and
 * automation platforms already send and answer `{status, message, ...}` in every case. The
 * route adapts HTTP only; receiveCompatCall decides. A caller is rate limited by its key (or
 * its address when it sends none) before anything is looked up.
 */
export function compatRoutes(deps: AppDeps): Router {
  const r = Router();
  const limit = deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES;
  const limiter = new RateLimiterMemory({ points: deps.env.COMPAT_RATE_LIMIT_PER_SECOND, duration: 1 });

  const rateLimit: RequestHandler = async (req, res, next) => {
    const key = req.header('x-api-key');
    const secret = typeof req.query.secret === 'string' ? req.query.secret : undefined;
    const bucket = key ? `key:${sha256Hex(key).slice(0, 16)}` : secret ? `secret:${sha256Hex(secret).slice(0, 16)}` : `ip:${req.ip ?? 'unknown'}`;
    try {
      await limiter.consume(bucket);
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return next(err);
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      res.status(429).json({ status: 'error', message: 'Too many requests: slow down' });
    }
  };

  const readBody = (req: Request) => async (): Promise<Buffer> => {
    // JSON in UTF-8; legacy callers that send no Content-Type at all are read as JSON too.
    if (req.headers['content-type'] !== undefined) {
      const refused = unsupportedBody(req);
      if (refused) throw refuse(415, refused.message);
    }
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') throw refuse(415, 'Send the body uncompressed (no Content-Encoding)');
    try {
      return await getRawBody(req, { limit, length: req.headers['content-length'] });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') throw refuse(413, `The body is larger than ${limit} bytes`, { Connection: 'close' });
      throw refuse(400, 'The body could not be read');
    }
  };

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
          readBody: readBody(req),
        });
      } catch (err) {
        if (err instanceof BodyRefused) answer = err.answer;
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
  return r;
}
