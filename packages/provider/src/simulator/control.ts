import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { digitsOf } from './config';
import { toMs, type SimEngine } from './engine';

const share = z.number().min(0).max(1);
const time = z.union([z.iso.datetime({ offset: true }), z.number().int().nonnegative()]);

const schemas = {
  seed: z.object({
    name: z.string().min(1),
    language: z.string().min(1),
    category: z.string().optional(),
    parameter_format: z.string().optional(),
    components: z.array(z.unknown()),
    status: z.enum(['APPROVED', 'PAUSED', 'DISABLED']).optional(),
    wabaId: z.string().min(1).optional(),
  }),
  inbound: z.object({
    from: z.string().min(1),
    phoneNumberId: z.string().min(1).optional(),
    at: time.optional(),
    text: z.string().optional(),
    name: z.string().optional(),
    deliver: z.boolean().optional(),
  }),
  windows: z.object({ from: z.string().min(1), phoneNumberId: z.string().min(1).optional(), openedAt: time.nullable() }),
  throughput: z.object({ phoneNumberId: z.string().min(1), perSecond: z.number().int().min(0) }),
  faults: z.object({
    serverErrorShare: share.optional(),
    timeoutShare: share.optional(),
    timeoutMode: z.enum(['before_accept', 'after_accept']).optional(),
    hangMs: z.number().int().min(0).optional(),
  }),
  // `code` answers the provider's limit error (130429 throughput, 131056 pair rate) with its own status, 400.
  failNext: z.union([
    z.object({ status: z.number().int().min(100).max(599), count: z.number().int().min(1).optional() }),
    z.object({ code: z.union([z.literal(130429), z.literal(131056)]), count: z.number().int().min(1).optional() }),
  ]),
  statuses: z.object({
    enabled: z.boolean().optional(),
    sentMs: z.number().int().min(0).optional(),
    deliveredMs: z.number().int().min(0).optional(),
    readMs: z.number().int().min(0).optional(),
    readShare: share.optional(),
    failShare: share.optional(),
    failCodes: z.array(z.number().int()).min(1).optional(),
  }),
  flush: z.object({ all: z.boolean().optional() }),
  reset: z.object({ templates: z.boolean().optional() }),
};

/** Parses the body or answers 400 with the first issue; the route runs only on success. */
function route<T>(schema: z.ZodType<T>, handler: (body: T, req: Request, res: Response) => unknown) {
  return async (req: Request, res: Response) => {
    const parsed = schema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return void res.status(400).json({ error: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` });
    }
    try {
      const out = await handler(parsed.data, req, res);
      if (!res.headersSent) res.json(out);
    } catch (err) {
      res.status((err as { status?: number }).status ?? 400).json({ error: (err as Error).message });
    }
  };
}

/** The `/_sim/*` controls beyond templates: inbound messages and windows, limits, faults, statuses, counters, reset. */
export function controlRoutes(engine: SimEngine): Router {
  const r = express.Router();
  const q = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

  r.get('/messages', (req, res) => {
    const to = q(req.query.to) && digitsOf(q(req.query.to)!);
    const callbackData = q(req.query.callbackData);
    const phoneNumberId = q(req.query.phoneNumberId);
    const limit = Math.min(Math.max(Number(req.query.limit) || 1000, 1), 100_000);
    const matching = engine.store.messages
      .all()
      .filter((m) => (!to || m.waId === to) && (!callbackData || m.callbackData === callbackData) && (!phoneNumberId || m.phoneNumberId === phoneNumberId));
    res.json({ messages: matching.slice(-limit) });
  });

  r.post(
    '/templates/approved',
    route(schemas.seed, (b) => ({ template: engine.seedTemplate(b) })),
  );

  r.post(
    '/inbound',
    route(schemas.inbound, (b) => engine.inbound(b)),
  );

  r.post(
    '/windows',
    route(schemas.windows, (b) => {
      if (b.openedAt === null) engine.windows.close(b.from, b.phoneNumberId);
      else engine.windows.open(b.from, toMs(b.openedAt), b.phoneNumberId);
      return { from: digitsOf(b.from), openedAt: b.openedAt === null ? null : new Date(toMs(b.openedAt)).toISOString() };
    }),
  );

  r.post(
    '/throughput',
    route(schemas.throughput, (b) => {
      engine.throughput.set(b.phoneNumberId, b.perSecond);
      return { phoneNumberId: b.phoneNumberId, perSecond: engine.throughput.limitOf(b.phoneNumberId) };
    }),
  );

  r.get('/faults', (_req, res) => void res.json({ faults: engine.faults.faults }));
  r.post(
    '/faults',
    route(schemas.faults, (b) => ({ faults: engine.faults.set(b) })),
  );
  r.post(
    '/fail-next',
    route(schemas.failNext, (b) => {
      if ('code' in b) engine.store.failNext(400, b.count, b.code);
      else engine.store.failNext(b.status, b.count);
      return { ok: true };
    }),
  );

  r.post(
    '/statuses',
    route(schemas.statuses, (b) => {
      const { sentMs, deliveredMs, readMs, ...options } = b;
      Object.assign(engine.statuses.delays, Object.fromEntries(Object.entries({ sentMs, deliveredMs, readMs }).filter(([, v]) => v !== undefined)));
      Object.assign(engine.statuses.options, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
      return { delays: engine.statuses.delays, options: engine.statuses.options };
    }),
  );
  r.post(
    '/statuses/flush',
    route(schemas.flush, async (b) => {
      await engine.statuses.flushAll(b.all ?? false);
      return { statuses: engine.statuses.snapshot() };
    }),
  );

  r.get('/stats', (req, res) => void res.json(engine.snapshot(q(req.query.phoneNumberId))));
  r.post(
    '/reset',
    route(schemas.reset, (b) => {
      engine.reset(b);
      return { ok: true };
    }),
  );
  return r;
}
