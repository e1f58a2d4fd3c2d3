import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSyncedTemplate } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { approvedTemplatesResult, findApprovedTemplate, type AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../../app';
import { seedApiKey, v1, type SeededKey } from './testing';

describe('GET /v1/templates', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededKey;
  let b: SeededKey;
  let empty: SeededKey;
  const body = [{ type: 'BODY', text: 'Your order {{1}} has shipped' }];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    a = await seedApiKey(deps);
    b = await seedApiKey(deps);
    empty = await seedApiKey(deps);
    const now = new Date();
    let n = 0;
    const seed = (ws: string, name: string, language: string, status: string, category = 'UTILITY') =>
      upsertSyncedTemplate(tdb.db, ws, { providerTemplateId: String(++n), name, language, category, status, components: body }, now);
    await seed(a.workspaceId, 'order_shipped', 'it', 'approved');
    await seed(a.workspaceId, 'order_shipped', 'en_US', 'approved');
    await seed(a.workspaceId, 'autumn_sale', 'en_US', 'approved', 'MARKETING');
    await seed(a.workspaceId, 'draft_idea', 'en_US', 'pending_approval');
    await seed(a.workspaceId, 'bad_idea', 'en_US', 'rejected');
    await seed(a.workspaceId, 'paused_one', 'en_US', 'paused');
    await seed(b.workspaceId, 'b_only', 'en_US', 'approved');
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  it('answers approved templates only, by name then language, in the documented shape', async () => {
    const res = await v1(api.url, a.key, '/templates');
    expect(res.status).toBe(200);
    approvedTemplatesResult.parse(res.body);
    expect(res.body).toEqual({
      templates: [
        { name: 'autumn_sale', language: 'en_US', category: 'MARKETING', status: 'approved', components: body },
        { name: 'order_shipped', language: 'en_US', category: 'UTILITY', status: 'approved', components: body },
        { name: 'order_shipped', language: 'it', category: 'UTILITY', status: 'approved', components: body },
      ],
    });
  });

  it('shows each workspace only its own, and an empty list where there are none', async () => {
    expect((await v1(api.url, b.key, '/templates')).body.templates.map((t: { name: string }) => t.name)).toEqual(['b_only']);
    expect((await v1(api.url, empty.key, '/templates')).body).toEqual({ templates: [] });
  });

  it('refuses query parameters (400 validation_failed)', async () => {
    expect(await v1(api.url, a.key, '/templates?status=all')).toMatchObject({ status: 400, body: { error: 'validation_failed', issues: [expect.anything()] } });
  });

  it('findApprovedTemplate: approved, in this workspace, with this language, or nothing', async () => {
    expect(await findApprovedTemplate(tdb.db, a.workspaceId, 'order_shipped', 'it')).toMatchObject({
      name: 'order_shipped',
      language: 'it',
      status: 'approved',
    });
    expect(await findApprovedTemplate(tdb.db, a.workspaceId, 'order_shipped', 'de')).toBeUndefined();
    expect(await findApprovedTemplate(tdb.db, a.workspaceId, 'draft_idea', 'en_US')).toBeUndefined();
    expect(await findApprovedTemplate(tdb.db, a.workspaceId, 'paused_one', 'en_US')).toBeUndefined();
    expect(await findApprovedTemplate(tdb.db, a.workspaceId, 'b_only', 'en_US')).toBeUndefined();
    expect(await findApprovedTemplate(tdb.db, b.workspaceId, 'b_only', 'en_US')).toBeDefined();
  });
});
