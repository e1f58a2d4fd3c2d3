import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { newId } from '@mos/core';
import { compatMappings } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, expressRoutes, jsonRequest, listen } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import {
  seedCredentials,
  seedWorkspaceEntities,
  testDeps,
  workspaceSnapshot,
  type EntityKind,
  type SeededCredentials,
  type WorkspaceEntities,
} from '@mos/app/testing';
import { createApiApp } from './app';

/**
 * Workspace B (its owner's session on /internal, its API key on /v1 and the legacy paths) asks
 * for workspace A's records by id: every such route answers 404, as for an id that does not
 * exist, B's lists show none of A's ids, and nothing of A changes (every row of every workspace
 * table, before and after). Every route with a path parameter is classified below.
 */
const ENTITY_PARAMS: Record<string, EntityKind> = {
  'get /internal/webhooks/:id': 'webhookEvent',
  'post /internal/webhooks/:id/replay': 'webhookEvent',
  'post /internal/webhook-events/:id/replay': 'webhookDelivery',
  'get /internal/webhook-rejections/:id': 'webhookRejection',
  'get /internal/messages/:id': 'message',
  'get /internal/broadcasts/:id': 'broadcast',
  'get /internal/campaigns/:id': 'campaign',
  'get /v1/messages/:id': 'message',
  'get /v1/broadcasts/:id': 'broadcast',
  'post /v1/broadcasts/:id/pause': 'broadcast',
  'post /v1/broadcasts/:id/resume': 'broadcast',
  'post /v1/broadcasts/:id/cancel': 'broadcast',
};
/** A's compat mapping by its legacy path: B's key must not reach A's journey through it. */
const LEGACY_PATH_ROUTE = 'post /compat/journey-trigger/*legacyPath';
/** Parameters that resolve a workspace by a signature or a secret, not by the caller (their own suites), or name a file. */
const NOT_CALLER_SCOPED = new Set([
  'get /webhooks/messaging/:workspaceSlug',
  'post /webhooks/messaging/:workspaceSlug',
  'post /webhooks/provider/:workspaceSlug',
  'post /api/v1/inbound-webhooks/:slug',
  'get /v1/docs/assets/:file',
  // Rest-trigger mappings are found by the legacy ids alone, like the legacy path below; that path stands for both.
  'post /webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/',
  'post /webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/:triggerId/',
]);

describe('workspace isolation (API app)', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let creds: SeededCredentials;
  let a: WorkspaceEntities;
  let routes: string[];
  let before: Record<string, string>;
  const leaks = (body: unknown) => Object.values(a).filter((id) => JSON.stringify(body).includes(id));
  const asB = (route: string) => (route.includes(' /v1/') ? { 'x-api-key': creds.bApiKey } : bearer(creds.b.token));

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    const app = createApiApp(deps);
    routes = expressRoutes(app).map((r) => `${r.method} ${r.path}`);
    api = await listen(app);
    creds = await seedCredentials(deps);
    a = await seedWorkspaceEntities(deps, creds.a.owner);
    await seedWorkspaceEntities(deps, creds.b);
    before = await workspaceSnapshot(tdb.db, creds.a.owner.workspaceId);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  it('classifies every route with a path parameter', () => {
    const withParams = routes.filter((r) => /[:*]/.test(r));
    expect(withParams.filter((r) => !(r in ENTITY_PARAMS) && r !== LEGACY_PATH_ROUTE && !NOT_CALLER_SCOPED.has(r))).toEqual([]);
    expect([...Object.keys(ENTITY_PARAMS), LEGACY_PATH_ROUTE].filter((r) => !routes.includes(r))).toEqual([]);
  });

  it.each(Object.entries(ENTITY_PARAMS))('%s with an id of A answers 404', async (route, kind) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const res = await jsonRequest(`${api.url}${pattern.replace(':id', a[kind])}`, {
      method: method.toUpperCase(),
      headers: asB(route),
      ...(method === 'post' ? { body: {} } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.error).toMatch(/not_found/);
    expect(leaks(res.body)).toEqual([]);
  });

  const legacyTrigger = async (key: string) => {
    const [mapping] = await tdb.db.select().from(compatMappings).where(eq(compatMappings.id, a.compatMapping));
    return jsonRequest(`${api.url}/compat/journey-trigger/${mapping!.legacyPath}`, { headers: { 'x-api-key': key }, body: { phone: '+15550002222' } });
  };

  it(`${LEGACY_PATH_ROUTE} with A's legacy path and B's key answers 404`, async () => {
    const res = await legacyTrigger(creds.bApiKey);
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(leaks(res.body)).toEqual([]);
  });

  it("B's lists show none of A's ids", async () => {
    const lists = routes.filter((r) => r.startsWith('get ') && !/[:*]/.test(r) && /^get \/(internal|v1)\//.test(r) && !r.includes('/docs'));
    expect(lists.length).toBeGreaterThan(10);
    for (const route of lists) {
      const res = await jsonRequest(`${api.url}${route.slice(4)}`, { headers: asB(route) });
      expect(res.status, route).toBe(200);
      expect(leaks(res.body), route).toEqual([]);
    }
  });

  it("changes nothing of A's (every row of every workspace table)", async () => {
    expect(await workspaceSnapshot(tdb.db, creds.a.owner.workspaceId)).toEqual(before);
  });

  it("A's own key finds the mapping behind the same legacy path (the 404 above was B's, not a dead path)", async () => {
    // A's journey is a draft: A is told so (409); B was told the path does not exist.
    const res = await legacyTrigger(creds.apiKey);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
  });
});
