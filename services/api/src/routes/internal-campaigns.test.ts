import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { upsertSyncedTemplate } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { activateCampaign, campaignListView, createCampaign, createCampaignInput, listCampaigns, type AppDeps, type CampaignView } from '@mos/app';
import { createApiApp } from '../app';

/** GET /internal/campaigns[/{id}]: the spec's fields (and the tRPC body), per workspace, newest first. */
describe('GET /internal/campaigns', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let stranger: SeededOperator;
  let draft: CampaignView;
  let active: CampaignView;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    api = await listen(createApiApp(deps));
    owner = await seedOperator(deps, { role: 'owner', phoneNumberId: '106540352242922' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    stranger = await seedOperator(deps, { role: 'owner' });
    await upsertSyncedTemplate(
      tdb.db,
      owner.workspaceId,
      {
        providerTemplateId: '1',
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        status: 'approved',
        components: [{ type: 'BODY', text: 'Sale!' }],
      },
      new Date(),
    );
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    const make = async (name: string) =>
      (await createCampaign(deps, scope, createCampaignInput.parse({ name, template: { name: 'spring_sale', language: 'en_US' }, segment: {} }))).campaign;
    active = await make('Launch');
    await new Promise((r) => setTimeout(r, 5));
    draft = await make('Follow-up');
    active = (await activateCampaign(deps, scope, active.id)).campaign;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  const get = (path: string, op: SeededOperator | null = owner) => jsonRequest(`${api.url}/internal${path}`, op ? { headers: bearer(op.token) } : {});

  it('answers { campaigns } with id, name, status and templateName, newest first, as tRPC does', async () => {
    const res = await get('/campaigns');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['campaigns']);
    expect(res.body.campaigns.map((c: CampaignView) => ({ id: c.id, name: c.name, status: c.status, templateName: c.templateName }))).toEqual([
      { id: draft.id, name: 'Follow-up', status: 'draft', templateName: 'spring_sale' },
      { id: active.id, name: 'Launch', status: 'scheduled', templateName: 'spring_sale' },
    ]);
    const page = campaignListView.parse(res.body);
    expect(page).toEqual(await listCampaigns(deps, { workspaceId: owner.workspaceId, actorId: viewer.memberId, role: viewer.role }, { limit: 50, offset: 0 }));
    expect(page.campaigns[1]).toMatchObject({ broadcastId: active.broadcastId, counts: { total: 0 }, paused: false, archivedAt: null });
    expect((await get('/campaigns?limit=1&offset=1', viewer)).body).toEqual({ campaigns: [page.campaigns[1]] });
  });

  it('one campaign by id; 404 for another workspace’s or a malformed id; 401 without a session; 400 for a bad page', async () => {
    expect(await get(`/campaigns/${draft.id}`)).toMatchObject({ status: 200, body: { campaign: { id: draft.id, status: 'draft' } } });
    expect(await get(`/campaigns/${draft.id}`, stranger)).toMatchObject({ status: 404, body: { error: 'campaign_not_found' } });
    expect(await get(`/campaigns/${newId('broadcast')}`)).toMatchObject({ status: 404, body: { error: 'campaign_not_found' } });
    expect(await get('/campaigns', stranger)).toMatchObject({ status: 200, body: { campaigns: [] } });
    expect((await get('/campaigns', null)).status).toBe(401);
    for (const q of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc']) expect((await get(`/campaigns?${q}`)).status, q).toBe(400);
  });
});
