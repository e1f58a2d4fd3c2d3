import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createJourney, internalJourneyList, listJourneys, type AppDeps } from '@mos/app';
import { createApiApp } from '../app';

/** GET /internal/journeys: the session workspace's journeys, the same body as tRPC journeys.list. */
describe('GET /internal/journeys', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let stranger: SeededOperator;
  const ids: string[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    owner = await seedOperator(deps);
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    stranger = await seedOperator(deps);
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    ids.push((await createJourney(deps, scope, { name: 'First', trigger: { type: 'api' }, steps: [{ id: 'end', type: 'exit' }] })).journey.id);
    const steps = [
      { id: 'pause', type: 'wait' as const, seconds: 60 },
      { id: 'end', type: 'exit' as const },
    ];
    ids.push((await createJourney(deps, scope, { name: 'Second', trigger: { type: 'partner_event', eventName: 'paid' }, steps })).journey.id);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  const get = (op: SeededOperator | null) => jsonRequest(`${api.url}/internal/journeys`, { headers: op ? bearer(op.token) : {} });

  it('lists the workspace’s journeys newest first with their fields, not their steps', async () => {
    const res = await get(viewer);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['journeys']);
    expect(res.body.journeys.map((j: { id: string }) => j.id)).toEqual([ids[1], ids[0]]);
    expect(res.body.journeys[0]).toEqual({
      id: ids[1],
      name: 'Second',
      status: 'draft',
      triggerType: 'partner_event',
      trigger: { type: 'partner_event', eventName: 'paid' },
      version: 1,
      stepCount: 2,
      createdBy: owner.memberId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // The same body as journeys.list, and internalJourneyList's array (the runtime snapshot's).
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    expect(res.body).toEqual(JSON.parse(JSON.stringify(await listJourneys(deps, scope))));
    expect((await internalJourneyList(deps, scope)).map((j) => [j.id, j.name, j.status, j.triggerType])).toEqual([
      [ids[1], 'Second', 'draft', 'partner_event'],
      [ids[0], 'First', 'draft', 'api'],
    ]);
  });

  it('another workspace sees none of them; no session is 401', async () => {
    expect(await get(stranger)).toMatchObject({ status: 200, body: { journeys: [] } });
    expect((await get(null)).status).toBe(401);
  });
});
