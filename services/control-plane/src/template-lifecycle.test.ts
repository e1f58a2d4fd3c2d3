import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '@mos/api';
import { createLogger } from '@mos/config';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { startSimulator, type RunningSimulator } from '@mos/provider/simulator';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { startWorkerRuntime, type WorkerRuntime } from '@mos/worker';
import { waitFor } from '@mos/worker/testing';
import { createControlPlaneApp } from './app';

const WABA = '102290129340398';
const SIGNING_SECRET = randomBytes(16).toString('hex');
const TOKEN = 'sim-e2e-token';

/**
 * The whole template lifecycle with every real part: control plane -> provider simulator ->
 * signed status webhook -> API ingress -> outbox -> Temporal pipeline (production effects)
 * -> library and synced list.
 */
describe('template lifecycle end to end', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let api: Awaited<ReturnType<typeof listen>>;
  let cp: Awaited<ReturnType<typeof listen>>;
  let runtime: WorkerRuntime;
  let op: SeededOperator;

  beforeAll(async () => {
    tdb = await createTestDatabase({ max: 10 });
    sim = await startSimulator({ accessToken: TOKEN });
    const deps = testDeps(tdb.db, { env: { PROVIDER_BASE_URL: sim.url } });
    api = await listen(createApiApp(deps));
    cp = await listen(createControlPlaneApp(deps));
    sim.setWebhook({ url: `${api.url}/webhooks/messaging`, signingSecret: SIGNING_SECRET });
    op = await seedOperator(deps, { role: 'developer', wabaId: WABA, providerIngress: true });
    await deps.vault.set(tdb.db, op.workspaceId, 'provider-access-token', TOKEN);
    await deps.vault.set(tdb.db, op.workspaceId, 'webhook-signing-secret', SIGNING_SECRET);
    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: createLogger({ name: 'e2e', level: 'silent' }),
      temporal: { address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', taskQueue: `test-tpl-e2e-${randomBytes(5).toString('hex')}` },
      relay: { pollIntervalMs: 1_000 },
    });
  }, 120_000);
  afterAll(async () => {
    await runtime?.stop();
    await api?.close();
    await cp?.close();
    await sim?.close();
    await tdb?.drop();
  });

  const get = (url: string) => jsonRequest(url, { headers: bearer(op.token) });
  async function createAndSubmit(name: string) {
    const created = await jsonRequest(`${cp.url}/api/templates`, {
      method: 'POST',
      headers: bearer(op.token),
      body: { name, components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} is confirmed, thank you.', example: { body_text: [['Ann', '#7']] } }] },
    });
    const submitted = await jsonRequest(`${cp.url}/api/templates/${created.body.template.id}/submit`, { method: 'POST', headers: bearer(op.token) });
    expect(submitted.body.template.status).toBe('pending_approval');
    return { id: created.body.template.id as string, providerTemplateId: submitted.body.template.providerTemplateId as string };
  }
  const libraryStatus = (id: string, want: string) =>
    waitFor(
      async () => {
        const t = (await get(`${cp.url}/api/templates/${id}`)).body.template;
        return t.status === want ? t : undefined;
      },
      { what: `template ${id} to become ${want}`, timeoutMs: 30_000 },
    );

  it('create -> submit -> approved by the provider -> approved in /api/templates and /internal/templates', async () => {
    const { id, providerTemplateId } = await createAndSubmit('e2e_order_confirmed');
    const delivery = await sim.review(providerTemplateId, 'APPROVED');
    expect(delivery?.status).toBe(200);
    const approved = await libraryStatus(id, 'approved');
    expect(approved).toMatchObject({ providerTemplateId, rejectionReason: null });
    const synced = (await get(`${api.url}/internal/templates`)).body.templates.find((t: { name: string }) => t.name === 'e2e_order_confirmed');
    expect(synced).toMatchObject({ providerTemplateId, status: 'approved', language: 'en_US', category: 'UTILITY', components: approved.components });
  });

  it('a provider rejection arrives the same way, with its reason, and revise reopens the draft', async () => {
    const { id, providerTemplateId } = await createAndSubmit('e2e_rejected');
    await sim.review(providerTemplateId, 'REJECTED', 'INVALID_FORMAT');
    const rejected = await libraryStatus(id, 'rejected');
    expect(rejected.rejectionReason).toContain('INVALID_FORMAT');
    const synced = (await get(`${api.url}/internal/templates`)).body.templates.find((t: { name: string }) => t.name === 'e2e_rejected');
    expect(synced).toMatchObject({ status: 'rejected' });
    const revised = await jsonRequest(`${cp.url}/api/templates/${id}/revise`, { method: 'POST', headers: bearer(op.token) });
    expect(revised.body.template).toMatchObject({ status: 'draft', rejectionReason: null, providerTemplateId });
    // Resubmitting edits the provider's template in place (same id) instead of re-creating it.
    const resubmitted = await jsonRequest(`${cp.url}/api/templates/${id}/submit`, { method: 'POST', headers: bearer(op.token) });
    expect(resubmitted.body).toEqual({ template: { id, status: 'pending_approval', providerTemplateId } });
    expect(sim.templates().filter((t) => t.name === 'e2e_rejected')).toMatchObject([{ id: providerTemplateId, status: 'PENDING' }]);
    await sim.review(providerTemplateId, 'APPROVED');
    expect(await libraryStatus(id, 'approved')).toMatchObject({ rejectionReason: null });
  });
});
