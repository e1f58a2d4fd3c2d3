import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { componentsSchema, upperCased, validateTemplate, type TemplateComponent } from '@mos/core';
import type { SimulatorConfig } from './config';
import { controlRoutes } from './control';
import { SimEngine } from './engine';
import * as E from './graph-errors';
import { handleSend } from './messages';
import { type SimStore, type SimTemplate } from './store';
import { deliverWebhook, templateStatusEnvelope } from './webhook';

export type { SimulatorConfig } from './config';

export type ReviewEvent = 'APPROVED' | 'REJECTED';
export class ReviewError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const param = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const send = (res: Response, e: E.GraphError) => res.status(e.status).json(e.body);

/** A body the provider would refuse: an unknown parameter is named, a missing one too. */
function bodyError(error: z.ZodError, fallback: string): E.GraphError {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') return E.invalidParam(`unknown parameter(s): ${issue.keys.join(', ')}`);
  return E.missingParam(String(issue?.path[0] ?? fallback));
}

const createBody = z.strictObject({
  name: z.string(),
  language: z.string(),
  category: z.string(),
  parameter_format: z.string().optional(),
  components: z.array(z.unknown()),
  message_send_ttl_seconds: z.number().int().optional(),
});

const editBody = z.strictObject({
  category: z.string().optional(),
  parameter_format: z.string().optional(),
  components: z.array(z.unknown()),
  message_send_ttl_seconds: z.number().int().optional(),
});

/**
 * Components through the same strict schema our API uses: the provider's lower-case
 * spellings ("body", "quick_reply") come out upper case, and a field nobody documents is
 * refused by name instead of being dropped. Returns the parsed components or the error.
 */
function parseComponents(raw: unknown[]): { components: TemplateComponent[] } | { error: E.GraphError } {
  const parsed = componentsSchema.safeParse(raw);
  if (parsed.success) return { components: parsed.data };
  const details = parsed.error.issues.map((i) => `components.${i.path.join('.')}: ${i.message}`).join('; ');
  return { error: E.invalidParam(details) };
}

/**
 * Behaves like the provider for the calls we make: template create/list on a business
 * account and message sends on a phone number, bearer token required, template rules
 * enforced by the same validator as our submit route, errors in the provider's shape.
 */
export function createSimulatorApp(config: SimulatorConfig, store: SimStore, engine = new SimEngine(config, store)) {
  const app: Express = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));

  async function review(id: string, event: ReviewEvent, reason?: string) {
    const t = store.templates.get(id);
    if (!t) throw new ReviewError(404, `template ${id} not found`);
    if (t.status !== 'PENDING') throw new ReviewError(409, `template ${id} is ${t.status}, not PENDING`);
    t.status = event;
    const why = reason ?? (event === 'APPROVED' ? 'NONE' : 'INVALID_FORMAT');
    if (event === 'REJECTED') t.rejected_reason = why;
    const webhook = await deliverWebhook(config, templateStatusEnvelope(t, event, why, config.now?.() ?? new Date()));
    return { template: t, webhook };
  }

  // ---- operator/test controls (dev tool: unauthenticated by design) ----
  app.get('/_sim/templates', (_req, res) => void res.json({ templates: [...store.templates.values()] }));
  app.post('/_sim/templates/:id/review', async (req, res) => {
    const body = z.object({ event: z.enum(['APPROVED', 'REJECTED']), reason: z.string().max(512).optional() }).safeParse(req.body ?? {});
    if (!body.success) return void res.status(400).json({ error: 'event must be APPROVED or REJECTED' });
    try {
      res.json(await review(param(req.params.id), body.data.event, body.data.reason));
    } catch (err) {
      if (err instanceof ReviewError) return void res.status(err.status).json({ error: err.message });
      res.status(502).json({ error: `review applied but webhook delivery failed: ${(err as Error).message}` });
    }
  });

  app.use('/_sim', controlRoutes(engine));

  // ---- the provider's Graph-style API ----
  const api = express.Router({ mergeParams: true });
  api.use((req: Request, res: Response, next: NextFunction) => {
    if (!/^v\d+\.\d+$/.test(param(req.params.version))) return send(res, E.graphError(400, { message: 'Unknown path components', code: 2500 }));
    const fault = store.takeFault();
    if (fault) {
      const e = fault.code === 130429 ? E.rateLimitHit() : fault.code === 131056 ? E.pairRateLimitHit() : E.serverError(fault.status);
      // On a send it is that number's rejection, counted like the ones the send rules give.
      const sendingFrom = req.method === 'POST' ? /^\/([^/]+)\/messages$/.exec(req.path)?.[1] : undefined;
      if (sendingFrom) engine.stats.rejected(sendingFrom, e.body.error.code ?? 0, engine.clock());
      return send(res, e);
    }
    const auth = req.headers.authorization;
    if (!auth) return send(res, E.missingToken());
    if (auth !== `Bearer ${config.accessToken}`) return send(res, E.invalidToken());
    next();
  });
  const knownWaba = (id: string) => !config.wabaId || config.wabaId === id;

  api.post('/:wabaId/message_templates', (req, res) => {
    const wabaId = param(req.params.wabaId);
    if (!knownWaba(wabaId)) return send(res, E.unknownObject(wabaId));
    store.templateRequests.push({ kind: 'create', target: wabaId, body: req.body });
    const parsed = createBody.safeParse(req.body ?? {});
    if (!parsed.success) return send(res, bodyError(parsed.error, 'name'));
    const b = parsed.data;
    const comps = parseComponents(b.components);
    if ('error' in comps) return send(res, comps.error);
    const { components } = comps;
    const parameterFormat = upperCased(b.parameter_format ?? 'POSITIONAL') as string;
    const category = upperCased(b.category) as string;
    const ttl = b.message_send_ttl_seconds;
    const issues = validateTemplate({ name: b.name, language: b.language, category, parameterFormat, components, messageSendTtlSeconds: ttl });
    if (issues.length > 0) return send(res, E.templateRejected(issues));
    if (store.find(wabaId, b.name, b.language)) return send(res, E.duplicateTemplate(b.name, b.language));
    const t: SimTemplate = {
      id: store.newTemplateId(),
      wabaId,
      name: b.name,
      language: b.language,
      category,
      parameter_format: parameterFormat,
      components,
      ...(ttl === undefined ? {} : { message_send_ttl_seconds: ttl }),
      status: 'PENDING',
    };
    store.templates.set(t.id, t);
    res.json({ id: t.id, status: t.status, category: t.category });
  });

  api.post('/:templateId', (req, res) => {
    const id = param(req.params.templateId);
    const t = store.templates.get(id);
    if (!t || !knownWaba(t.wabaId)) return send(res, E.unknownObject(id));
    store.templateRequests.push({ kind: 'edit', target: id, body: req.body });
    if (t.status === 'PENDING') return send(res, E.notEditable(t.status));
    const parsed = editBody.safeParse(req.body ?? {});
    if (!parsed.success) return send(res, bodyError(parsed.error, 'components'));
    const comps = parseComponents(parsed.data.components);
    if ('error' in comps) return send(res, comps.error);
    const { components } = comps;
    const category = upperCased(parsed.data.category ?? t.category) as string;
    const parameterFormat = upperCased(parsed.data.parameter_format ?? t.parameter_format) as string;
    const ttl = parsed.data.message_send_ttl_seconds ?? t.message_send_ttl_seconds;
    const issues = validateTemplate({ name: t.name, language: t.language, category, parameterFormat, components, messageSendTtlSeconds: ttl });
    if (issues.length > 0) return send(res, E.templateRejected(issues));
    // An edit goes back into review under the same id.
    Object.assign(t, {
      category,
      parameter_format: parameterFormat,
      components,
      message_send_ttl_seconds: ttl,
      status: 'PENDING' as const,
      rejected_reason: undefined,
    });
    res.json({ success: true });
  });

  api.get('/:wabaId/message_templates', (req, res) => {
    const wabaId = param(req.params.wabaId);
    if (!knownWaba(wabaId)) return send(res, E.unknownObject(wabaId));
    const limit = Math.min(Math.max(Number(req.query.limit) || 25, 1), 100);
    const start = req.query.after ? Number(Buffer.from(String(req.query.after), 'base64url').toString()) || 0 : 0;
    const all = store.list(wabaId);
    const data = all.slice(start, start + limit).map(({ wabaId: _w, ...t }) => t);
    const cursor = (i: number) => Buffer.from(String(i)).toString('base64url');
    const after = cursor(start + data.length);
    const more = start + data.length < all.length;
    const next = more ? `${req.protocol}://${req.get('host')}${req.baseUrl}/${wabaId}/message_templates?limit=${limit}&after=${after}` : undefined;
    res.json({ data, paging: { cursors: { before: cursor(start), after }, ...(next ? { next } : {}) } });
  });

  api.post('/:phoneNumberId/messages', (req, res) => {
    const phoneNumberId = param(req.params.phoneNumberId);
    if (config.phoneNumberId && config.phoneNumberId !== phoneNumberId) return send(res, E.unknownObject(phoneNumberId));
    handleSend(engine, phoneNumberId, req.body, res);
  });

  app.use('/:version', api);
  app.use((_req, res) => send(res, E.graphError(400, { message: 'Unknown path components', code: 2500 })));
  // Unparseable JSON and the like answer in the provider's shape too, never an HTML page.
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    send(
      res,
      E.graphError(err.status && err.status < 500 ? err.status : 500, {
        message: err.status && err.status < 500 ? `(#100) ${err.message ?? 'Invalid request'}` : 'An unexpected error has occurred.',
        code: err.status && err.status < 500 ? 100 : 1,
      }),
    );
  });
  return { app, review, engine };
}
