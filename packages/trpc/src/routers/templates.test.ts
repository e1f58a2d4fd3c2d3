import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, listWorkspaceSyncedTemplates, recordProviderTemplate, type AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createCaller } from '../router';

/** syncedTemplates.* (the provider's copy, GET /internal/templates) beside templates.* (the library). */
describe('syncedTemplates and templates list procedures', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let other: SeededOperator;

  const caller = async (op: SeededOperator) => createCaller({ deps, actor: await authenticate(deps, op.token), requestId: 'req_test' });
  const names = (r: { templates: { name: string }[] }) => r.templates.map((t) => t.name);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    owner = await seedOperator(deps);
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    other = await seedOperator(deps);
    // As the provider reports them (POST /internal/templates and the sync write the same copy).
    for (const [i, name] of ['order_shipped', 'appointment_reminder', 'welcome'].entries()) {
      const components = [{ type: 'BODY', text: `Hello {{1}} (${name})` }];
      await recordProviderTemplate(deps, {
        workspaceId: owner.workspaceId,
        providerTemplateId: `90${i}`,
        name,
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components,
      });
    }
    await recordProviderTemplate(deps, {
      workspaceId: other.workspaceId,
      providerTemplateId: '999',
      name: 'elsewhere',
      language: 'it',
      category: 'MARKETING',
      status: 'APPROVED',
    });
  });
  afterAll(async () => tdb?.drop());

  it('syncedTemplates.list pages the workspace copy for any operator, as GET /internal/templates does', async () => {
    const c = await caller(owner);
    const all = await c.syncedTemplates.list();
    expect(names(all)).toEqual(['appointment_reminder', 'order_shipped', 'welcome']);
    expect(all.templates[0]).toMatchObject({ providerTemplateId: '901', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY' }] });
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    expect(await c.syncedTemplates.list({ limit: 2, offset: 1 })).toEqual(await listWorkspaceSyncedTemplates(deps, scope, { limit: 2, offset: 1 }));
    expect(names(await c.syncedTemplates.list({ limit: 2, offset: 1 }))).toEqual(['order_shipped', 'welcome']);
    expect(names(await (await caller(viewer)).syncedTemplates.list({ limit: 1 }))).toEqual(['appointment_reminder']);
    expect(names(await (await caller(other)).syncedTemplates.list())).toEqual(['elsewhere']);
  });

  it('syncedTemplates.list refuses out-of-range pages and anonymous callers', async () => {
    const c = await caller(owner);
    expect(names(await c.syncedTemplates.list({ limit: 200, offset: 3 }))).toEqual([]);
    for (const page of [{ limit: 0 }, { limit: 201 }, { offset: -1 }, { limit: 1.5 }]) {
      await expect(c.syncedTemplates.list(page), JSON.stringify(page)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    await expect(createCaller({ deps, actor: null, requestId: 'r' }).syncedTemplates.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('templates.list answers the library as { templates }, apart from the synced copy', async () => {
    const c = await caller(owner);
    const draft = await c.templates.create({ name: 'Draft One', components: [{ type: 'BODY', text: 'Hi' }] });
    const { templates } = await c.templates.list();
    expect(templates).toEqual([expect.objectContaining({ id: draft.id, name: 'draft_one', status: 'draft' })]);
    await expect((await caller(viewer)).templates.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
