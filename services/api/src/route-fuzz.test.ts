import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundSigningKey, sha256Hex, signInboundBody, signProviderBody } from '@mos/core';
import { beatWorker, createSession } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import {
  appErrorShapeProblem,
  baselineCase,
  compatShapeProblem,
  countRows,
  expressRoutes,
  fuzzRoutes,
  judge,
  listen,
  mayAccept,
  openApiOperations,
  restCases,
  sendCase,
  type DocumentedOperation,
  type FuzzAnswer,
  type FuzzCase,
  type JsonSchema,
} from '@mos/http/testing';
import { createIngressMetrics, createInboundWebhook, promoteInboundWebhook, updatePlatformSettings, type AppDeps } from '@mos/app';
import { fixedClock, testDeps, type SeededOperator } from '@mos/app/testing';
import { createApiApp } from './app';
import { compatRoutes } from './routes/compat';
import { inboundWebhookRoutes } from './routes/inbound-webhooks';
import { internalTemplateServiceRoutes } from './routes/internal-templates';
import { webhookIngressRoutes } from './routes/webhook-ingress';
import { seedApprovedTemplate } from './testing/inbound-webhooks';
import { seedIngressWorkspace, SIGNING_SECRET } from './testing/webhooks';
import { seedApiKey } from './routes/v1/testing';

const SERVICE_TOKEN = randomBytes(24).toString('hex');
/** Seeded random bodies per route, beside the fixed hostile ones: the run stays well under a minute. */
const RANDOM_PER_ROUTE = 1;

type Surface = 'ingress' | 'inbound' | 'compat' | 'service' | 'v1' | 'session';

/**
 * Every route of the API app (walked from its router, checked against the OpenAPI document)
 * gets hostile path ids, query strings, bodies and headers from its most powerful legitimate
 * caller. Each answer is a 4xx in its surface's error shape (a 2xx only where the route's own
 * schema, or its plain baseline, makes the input acceptable), never a 5xx or leaked internals;
 * a refused request writes nothing, and the process still answers /health at the end.
 */
describe('route fuzzer: API app', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let op: SeededOperator;
  let apiKey: string;
  let inbound: { slug: string; secret: string };
  let doc: { paths: Record<string, Record<string, unknown>> };
  let documented: DocumentedOperation[];
  let routes: { method: string; path: string; surface: Surface }[];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // A fixed clock keeps the one worker heartbeat live, so /ready is ready and its answers are judged like any route's.
    const now = new Date();
    deps = testDeps(tdb.db, { env: { MOS_SERVICE_TOKEN: SERVICE_TOKEN }, clock: fixedClock(now) });
    await beatWorker(deps.db, { workerId: 'fuzz', status: 'idle', startedAt: now, now });
    const app = createApiApp(deps);
    api = await listen(app);
    op = await seedIngressWorkspace(deps);
    const k = await seedApiKey(deps, { workspace: op.workspaceSlug });
    apiKey = k.key;
    // The fuzzer is one caller sending thousands of requests; the budget is not what is under test.
    await updatePlatformSettings(deps, { workspaceId: op.workspaceId, actorId: 'cli', role: 'platform' }, { apiRateLimitPerMinute: 100_000 });
    await seedApprovedTemplate(deps, op.workspaceId, 'order_ready', 0);
    const scope = { workspaceId: op.workspaceId, actorId: op.memberId, role: op.role };
    const created = await createInboundWebhook(
      deps,
      scope,
      { name: 'fuzz', templateName: 'order_ready', templateLocale: 'en_US', mapping: { to: 'phone' } },
      'admin',
    );
    await promoteInboundWebhook(deps, scope, { id: created.inboundWebhook.id, live: false });
    inbound = { slug: created.inboundWebhook.slug, secret: created.secret };

    doc = (await (await fetch(`${api.url}/v1/openapi.json`)).json()) as typeof doc;
    documented = openApiOperations(doc);
    const keyed = (list: { method: string; path: string }[], prefix = '') => new Set(list.map((r) => `${r.method} ${prefix}${r.path}`));
    const ingress = keyed(expressRoutes(webhookIngressRoutes(deps, createIngressMetrics())));
    const inboundRoutes = keyed(expressRoutes(inboundWebhookRoutes(deps)));
    const compat = keyed(expressRoutes(compatRoutes(deps)));
    const service = keyed(expressRoutes(internalTemplateServiceRoutes(deps)), '/internal');
    routes = expressRoutes(app).map((r) => {
      const key = `${r.method} ${r.path}`;
      const surface: Surface = ingress.has(key)
        ? 'ingress'
        : inboundRoutes.has(key)
          ? 'inbound'
          : compat.has(key)
            ? 'compat'
            : service.has(key)
              ? 'service'
              : r.path.startsWith('/v1/')
                ? 'v1'
                : 'session';
      return { ...r, surface };
    });
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  it('discovers the routes from the router, every OpenAPI operation among them', () => {
    const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(documented.length).toBeGreaterThan(5);
    expect(documented.map((o) => `${o.method} ${o.path}`).filter((o) => !served.has(o))).toEqual([]);
    const surfaces = new Set(routes.map((r) => r.surface));
    expect([...surfaces].sort()).toEqual(['compat', 'inbound', 'ingress', 'service', 'session', 'v1']);
    expect(routes.length).toBeGreaterThan(40);
  });

  it('answers every hostile request to every route in its error shape, never a 5xx, and keeps its data', { timeout: 300_000 }, async () => {
    const limit = Math.max(1024 * 1024, deps.env.WEBHOOK_BODY_LIMIT_BYTES, deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES);
    const problems: string[] = [];
    const endedSession: string[] = [];
    let sent = 0;

    await fuzzRoutes(routes, 4, async (route) => {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      const operation = documented.find((o) => o.method === route.method && o.path === route.path);
      const bodySchema = (operation?.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.['application/json']?.schema;
      const queryParams = operation?.parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema as JsonSchema | undefined }));
      const fuzzRoute = { ...route, ...(bodySchema ? { bodySchema } : {}), ...(queryParams ? { queryParams } : {}) };
      // Each route its own session: one that signs out ends only its own.
      const session = route.surface === 'session' ? await mintSession() : undefined;
      const auth = authFor(route.surface, session);
      // The ingress and the inbound webhook resolve their target by slug: the real one, except where the slug itself is the hostile part.
      const slug = route.surface === 'ingress' ? op.workspaceSlug : route.surface === 'inbound' ? inbound.slug : undefined;
      const withSlug = (c: FuzzCase): FuzzCase => (slug && !c.name.startsWith('path id') ? { ...c, target: c.target.replace(/\/fz\w+/, `/${slug}`) } : c);
      const prepared = (c: FuzzCase): FuzzCase => sign(route.surface, withSlug(c));

      const baseline = await sendCase(api.url, prepared(baselineCase(fuzzRoute, auth)));
      const baselineAccepted = baseline.status >= 200 && baseline.status < 300;
      const before = await countRows(tdb.pool);
      let accepted = false;
      for (const c of restCases(fuzzRoute, { auth, bodyLimit: limit, random: RANDOM_PER_ROUTE })) {
        const answer = await sendCase(api.url, prepared(c));
        sent++;
        accepted ||= answer.status >= 200 && answer.status < 300;
        const problem =
          route.surface === 'ingress'
            ? judgeIngress(c, answer)
            : judge(c, answer, {
                accepts: (value) => (bodySchema ? mayAccept(bodySchema, value, doc) : baselineAccepted),
                baselineAccepted,
                shape: (a) =>
                  route.surface === 'compat'
                    ? compatShapeProblem(a)
                    : appErrorShapeProblem(a, {
                        ...(operation ? { documented: operation.errors[String(a.status)] ?? [] } : {}),
                        ...(route.surface === 'inbound' ? { extraKeys: ['runId'] } : {}),
                      }),
              });
        if (problem) problems.push(`${name} [${c.name}]: ${problem}`);
      }
      // The ingress stores every delivery by design; any other route that refused everything wrote nothing.
      if (!accepted && route.method !== 'get' && route.surface !== 'ingress') {
        const after = await countRows(tdb.pool);
        if (JSON.stringify(after) !== JSON.stringify(before))
          problems.push(`${name}: refused requests changed stored rows ${JSON.stringify({ before, after })}`);
      }
      if (session && (await fetch(`${api.url}/internal/runtime`, { headers: auth })).status === 401) endedSession.push(name);
    });

    expect(problems).toEqual([]);
    // Signing out is the one thing that may end the caller's session.
    expect(endedSession.filter((r) => !r.endsWith('/logout'))).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * 15);
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
  });

  /** A fresh owner session, straight in the store (signing in hashes a password: slow, and not under test here). */
  async function mintSession(): Promise<string> {
    const token = `mos_sess_${randomBytes(24).toString('hex')}`;
    await createSession(deps.db, op.workspaceId, { memberId: op.memberId, tokenHash: sha256Hex(token), now: deps.clock.now() });
    return token;
  }

  function authFor(surface: Surface, session?: string): Record<string, string> {
    if (surface === 'v1' || surface === 'compat') return { 'x-api-key': apiKey };
    if (surface === 'service') return { authorization: `Bearer ${SERVICE_TOKEN}` };
    if (surface === 'session' && session) return { authorization: `Bearer ${session}` };
    return {};
  }

  /** Signed as the real sender would, so the hostile part is the body, not a missing signature. */
  function sign(surface: Surface, c: FuzzCase): FuzzCase {
    const bytes = typeof c.body === 'string' ? Buffer.from(c.body) : Buffer.from(c.body ?? '');
    if (surface === 'ingress') return { ...c, headers: { ...c.headers, 'x-hub-signature-256': signProviderBody(SIGNING_SECRET, bytes) } };
    if (surface === 'inbound') {
      const signature = signInboundBody(inboundSigningKey(inbound.secret), Math.floor(deps.clock.now().getTime() / 1000), bytes);
      return { ...c, headers: { ...c.headers, 'x-service-signature': signature } };
    }
    return c;
  }
});

/**
 * The provider ingress stores every delivery it can read and answers 200 (docs/webhooks.md: the
 * provider retries anything else); past the body limit 413; an unknown workspace slug is the
 * documented 503 provider_ingress_not_configured, so a provider whose routing is being set up retries.
 */
function judgeIngress(c: FuzzCase, a: FuzzAnswer): string | undefined {
  const body = a.json as Record<string, unknown> | undefined;
  if (c.expect.kind === 'parser-431') return a.status === 431 ? undefined : `expected Node's 431, got ${a.status}`;
  if (a.status === 200) return c.method === 'GET' || typeof body?.webhookEventId === 'string' ? undefined : `200 without a stored event: ${a.text}`;
  if (a.status === 503 && c.name.startsWith('path id') && body?.error === 'provider_ingress_not_configured') return undefined;
  if (a.status >= 400 && a.status < 500) {
    const problem = appErrorShapeProblem(a, { extraKeys: ['ok'] });
    return problem ? `${a.status} ${problem}: ${a.text.slice(0, 200)}` : undefined;
  }
  return `answered ${a.status}: ${a.text.slice(0, 200)}`;
}
