import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listAuditLogs, upsertWorkspace } from '@mos/db';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { startSimulator, type RunningSimulator } from '@mos/provider/simulator';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import type { AppDeps } from '@mos/app';
import { createControlPlaneApp } from './app';

const WABA = '102290129340398';
const TOKEN = 'sim-test-token';
const valid = (name: string) => ({
  name,
  components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped today.', example: { body_text: [['Ann', '#42']] } }],
});

describe('control-plane /api/templates', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let cp: Awaited<ReturnType<typeof listen>>;
  let deps: AppDeps;
  let owner: SeededOperator;
  const call = (method: string, path: string, body?: unknown, op: SeededOperator = owner) =>
    jsonRequest(`${cp.url}${path}`, { method, headers: bearer(op.token), body });
  const create = async (body: unknown, op?: SeededOperator) => (await call('POST', '/api/templates', body, op)).body.template;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    sim = await startSimulator({ accessToken: TOKEN });
    deps = testDeps(tdb.db, { env: { PROVIDER_BASE_URL: sim.url } });
    cp = await listen(createControlPlaneApp(deps));
    owner = await seedOperator(deps, { role: 'owner', wabaId: WABA });
    await deps.vault.set(tdb.db, owner.workspaceId, 'provider-access-token', TOKEN);
  });
  afterAll(async () => {
    await cp?.close();
    await sim?.close();
    await tdb?.drop();
  });

  it('creates a draft with the spec defaults, a normalized name, variables and preview', async () => {
    const res = await call('POST', '/api/templates', { ...valid('Order Update!') });
    expect(res.status).toBe(200);
    expect(res.body.template).toMatchObject({
      name: 'order_update_',
      language: 'en_US',
      category: 'UTILITY',
      parameterFormat: 'POSITIONAL',
      status: 'draft',
      variables: ['1', '2'],
      preview: 'Hi Ann, your order #42 has shipped today.',
      providerTemplateId: null,
      rejectionReason: null,
    });
    expect(res.body.template.id).toMatch(/^tpl_/);
    expect(sim.templates()).toEqual([]);
    const minimal = await call('POST', '/api/templates', { name: 'only_a_name' });
    expect(minimal.body.template).toMatchObject({ components: [], variables: [], preview: '' });
  });

  it('answers 400 create_failed for a malformed body or a duplicate (name, language)', async () => {
    for (const body of [{}, { name: 'x', category: 'BOGUS' }, { name: 'x', components: [{ type: 'NOPE' }] }, { name: 'x', components: 'no' }]) {
      const res = await call('POST', '/api/templates', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('create_failed');
      expect(res.body.message).toEqual(expect.any(String));
    }
    await create({ name: 'twice', language: 'it' });
    const dup = await call('POST', '/api/templates', { name: 'twice', language: 'it' });
    expect(dup).toMatchObject({ status: 400, body: { error: 'create_failed', message: 'A template named twice already exists in it' } });
  });

  it('lists most recently updated first and scopes every id to the workspace', async () => {
    const a = await create({ name: 'list_a' });
    const b = await create({ name: 'list_b' });
    let list = (await call('GET', '/api/templates')).body.templates.map((t: { id: string }) => t.id);
    expect(list.indexOf(b.id)).toBeLessThan(list.indexOf(a.id));
    await call('PUT', `/api/templates/${a.id}`, { category: 'MARKETING' });
    list = (await call('GET', '/api/templates')).body.templates.map((t: { id: string }) => t.id);
    expect(list[0]).toBe(a.id);
    expect(await call('GET', `/api/templates/${a.id}`)).toMatchObject({ status: 200, body: { template: { id: a.id, category: 'MARKETING' } } });

    const stranger = await seedOperator(deps, { role: 'owner' });
    expect((await call('GET', '/api/templates', undefined, stranger)).body.templates).toEqual([]);
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/submit'],
      ['POST', '/revise'],
    ] as const) {
      const res = await call(method, `/api/templates/${a.id}${path}`, method === 'PUT' ? { category: 'UTILITY' } : undefined, stranger);
      expect(res, `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
  });

  it('patches only the sent fields of a draft', async () => {
    const t = await create({ ...valid('patch_me'), category: 'MARKETING' });
    const res = await call('PUT', `/api/templates/${t.id}`, { language: 'it' });
    expect(res.body.template).toMatchObject({ name: 'patch_me', language: 'it', category: 'MARKETING', components: t.components });
    expect(await call('PUT', `/api/templates/${t.id}`, { category: 'NOPE' })).toMatchObject({ status: 400, body: { error: 'update_failed' } });
    expect(await call('PUT', '/api/templates/tpl_missing', { category: 'UTILITY' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('deletes drafts and refuses anything else with 409', async () => {
    const d = await create({ name: 'delete_me' });
    expect(await call('DELETE', `/api/templates/${d.id}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await call('GET', `/api/templates/${d.id}`)).toMatchObject({ status: 404 });
    expect(await call('DELETE', `/api/templates/${d.id}`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const s = await create(valid('submitted_keep'));
    expect((await call('POST', `/api/templates/${s.id}/submit`)).status).toBe(200);
    expect(await call('DELETE', `/api/templates/${s.id}`)).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: 'Only draft templates can be deleted' },
    });
    expect(await call('PUT', `/api/templates/${s.id}`, { category: 'MARKETING' })).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: 'Only draft templates can be edited' },
    });
    expect(await call('POST', `/api/templates/${s.id}/submit`)).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('submit: validation_failed with issues and no provider call', async () => {
    const t = await create({ name: 'bad_body', components: [{ type: 'BODY', text: '{{1}} {{3}}' }] });
    const res = await call('POST', `/api/templates/${t.id}/submit`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.issues.map((i: { code: string }) => i.code)).toEqual(
      expect.arrayContaining(['placeholder_sequence', 'placeholder_dangling', 'example_missing']),
    );
    expect(sim.templates().some((s) => s.name === 'bad_body')).toBe(false);
    expect((await call('GET', `/api/templates/${t.id}`)).body.template.status).toBe('draft');
  });

  it('submit: pending_approval with the provider id, stored and audited', async () => {
    const t = await create(valid('to_submit'));
    const res = await call('POST', `/api/templates/${t.id}/submit`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ template: { id: t.id, status: 'pending_approval', providerTemplateId: expect.any(String) } });
    const stored = sim.templates().find((s) => s.name === 'to_submit');
    expect(stored).toMatchObject({ id: res.body.template.providerTemplateId, status: 'PENDING', language: 'en_US', category: 'UTILITY' });
    expect((await call('GET', `/api/templates/${t.id}`)).body.template).toMatchObject({ status: 'pending_approval', rejectionReason: null });
    const actions = (await listAuditLogs(tdb.db, owner.workspaceId, { limit: 100 })).filter((a) => a.targetId === t.id).map((a) => a.action);
    expect(actions.sort()).toEqual(['template.create', 'template.submit']);
  });

  it('submit: a provider rejection marks the row rejected and returns the raw error as meta; revise brings it back', async () => {
    // A second workspace on the same business account: the provider already has this name.
    const twin = await seedOperator(deps, { role: 'admin', wabaId: WABA });
    await deps.vault.set(tdb.db, twin.workspaceId, 'provider-access-token', TOKEN);
    await call('POST', `/api/templates/${(await create(valid('shared_name')))!.id}/submit`);
    const t = await create(valid('shared_name'), twin);
    const res = await call('POST', `/api/templates/${t.id}/submit`, undefined, twin);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('provider_submit_failed');
    expect(res.body.meta).toMatchObject({ code: 100, error_subcode: 2388024, type: expect.any(String), fbtrace_id: expect.any(String) });
    const row = (await call('GET', `/api/templates/${t.id}`, undefined, twin)).body.template;
    expect(row.status).toBe('rejected');
    expect(row.rejectionReason).toBe(res.body.message);

    const revised = await call('POST', `/api/templates/${t.id}/revise`, undefined, twin);
    expect(revised.body.template).toMatchObject({ status: 'draft', rejectionReason: null });
    expect(await call('POST', `/api/templates/${t.id}/revise`, undefined, twin)).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect((await call('PUT', `/api/templates/${t.id}`, { name: 'shared_name_v2' }, twin)).body.template.name).toBe('shared_name_v2');
    expect(await call('POST', `/api/templates/${t.id}/submit`, undefined, twin)).toMatchObject({
      status: 200,
      body: { template: { status: 'pending_approval' } },
    });
  });

  it('submit: 503 and an unchanged draft when the provider is down', async () => {
    const t = await create(valid('provider_down'));
    sim.failNext(503, 1);
    expect(await call('POST', `/api/templates/${t.id}/submit`)).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
    expect((await call('GET', `/api/templates/${t.id}`)).body.template.status).toBe('draft');
  });

  it('submit and seed: no_waba and no_access_token', async () => {
    const noWaba = await seedOperator(deps, { role: 'owner' });
    const a = await create(valid('needs_waba'), noWaba);
    expect(await call('POST', `/api/templates/${a.id}/submit`, undefined, noWaba)).toMatchObject({ status: 400, body: { error: 'no_waba' } });
    expect(await call('POST', '/api/templates/seed-starter-pack', undefined, noWaba)).toMatchObject({ status: 400, body: { error: 'no_waba' } });
    await upsertWorkspace(tdb.db, noWaba.workspaceSlug, { wabaId: '5550001' });
    expect(await call('POST', `/api/templates/${a.id}/submit`, undefined, noWaba)).toMatchObject({ status: 400, body: { error: 'no_access_token' } });
    expect(await call('POST', '/api/templates/seed-starter-pack', undefined, noWaba)).toMatchObject({ status: 400, body: { error: 'no_access_token' } });
    expect((await call('GET', `/api/templates/${a.id}`, undefined, noWaba)).body.template.status).toBe('draft');
  });

  it('validate: every issue at once, plus the derived variables and preview', async () => {
    const res = await call('POST', '/api/templates/validate', {
      name: 'Mixed Case',
      language: 'xx',
      components: [{ type: 'BODY', text: 'Hello {{1}} there friend', example: { body_text: [['Bo']] } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, name: 'mixed_case', variables: ['1'], preview: 'Hello Bo there friend' });
    expect(res.body.issues.map((i: { code: string }) => i.code)).toEqual(['language_unsupported']);
  });

  it('tRPC: templates.validate gives live feedback and templates.create reports create_failed as appCode', async () => {
    const input = encodeURIComponent(JSON.stringify({ name: 'x', components: [{ type: 'BODY', text: '{{1}} hi' }] }));
    const res = await jsonRequest(`${cp.url}/trpc/templates.validate?input=${input}`, { headers: bearer(owner.token) });
    expect(res.status).toBe(200);
    expect(res.body.result.data.issues.map((i: { code: string }) => i.code)).toEqual(['placeholder_dangling', 'too_many_variables', 'example_missing']);
    const bad = await jsonRequest(`${cp.url}/trpc/templates.create`, { method: 'POST', headers: bearer(owner.token), body: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data).toMatchObject({ appCode: 'create_failed', issues: [expect.objectContaining({ path: ['name'] })] });
  });

  it('seeds the 13-template starter pack against the simulator, idempotently', async () => {
    const ws = await seedOperator(deps, { role: 'owner', wabaId: '9990001112' });
    await deps.vault.set(tdb.db, ws.workspaceId, 'provider-access-token', TOKEN);
    const first = await call('POST', '/api/templates/seed-starter-pack', undefined, ws);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 13, submitted: 13, errored: 0 });
    expect(first.body.results.filter((r: { category: string }) => r.category === 'UTILITY')).toHaveLength(8);
    expect(new Set(first.body.results.map((r: { language: string }) => r.language))).toEqual(new Set(['en_US', 'it']));
    for (const r of first.body.results)
      expect(r).toEqual({
        name: expect.any(String),
        language: expect.any(String),
        category: expect.any(String),
        status: 'submitted',
        providerTemplateId: expect.any(String),
      });
    const simCount = sim.templates().length;

    const second = await call('POST', '/api/templates/seed-starter-pack', undefined, ws);
    expect(second.body).toEqual(first.body);
    expect(sim.templates().length).toBe(simCount);
    const rows = (await call('GET', '/api/templates', undefined, ws)).body.templates;
    expect(rows).toHaveLength(13);
    expect(rows.every((r: { status: string }) => r.status === 'pending_approval')).toBe(true);
  });

  it('seed: a provider error marks that entry error and its row rejected', async () => {
    const ws = await seedOperator(deps, { role: 'admin', wabaId: '9990001113' });
    await deps.vault.set(tdb.db, ws.workspaceId, 'provider-access-token', TOKEN);
    sim.failNext(500, 1);
    const res = await call('POST', '/api/templates/seed-starter-pack', undefined, ws);
    expect(res.body).toMatchObject({ total: 13, submitted: 12, errored: 1 });
    const failed = res.body.results.find((r: { status: string }) => r.status === 'error');
    expect(failed).toMatchObject({ error: expect.any(String) });
    const row = (await call('GET', '/api/templates', undefined, ws)).body.templates.find(
      (t: { name: string; language: string }) => t.name === failed.name && t.language === failed.language,
    );
    expect(row).toMatchObject({ status: 'rejected', rejectionReason: failed.error });
    const again = await call('POST', '/api/templates/seed-starter-pack', undefined, ws);
    expect(again.body).toMatchObject({ submitted: 13, errored: 0 });
  });
});
