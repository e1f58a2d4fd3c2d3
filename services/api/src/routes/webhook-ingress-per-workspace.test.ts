import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookEvents } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, SIGNING_SECRET, VERIFY_TOKEN } from '../testing/webhooks';

/**
 * `/webhooks/messaging/{slug}` and `/webhooks/provider/{slug}`: each workspace's own provider
 * URL, with the shared paths' behaviour and storage, whichever workspace holds the shared mark.
 */
describe('per-workspace provider webhook URLs', () => {
  let tdb: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;
  let shared: SeededOperator;
  let tenant: SeededOperator;
  const TENANT_SECRET = 'tenant-signing-secret';
  const TENANT_TOKEN = 'tenant-verify-token';

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    server = await listen(createApiApp(deps));
    shared = await seedIngressWorkspace(deps);
    tenant = await seedOperator(deps, { role: 'owner' });
    await deps.vault.set(deps.db, tenant.workspaceId, 'webhook-signing-secret', TENANT_SECRET);
    await deps.vault.set(deps.db, tenant.workspaceId, 'provider-verify-token', TENANT_TOKEN);
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  const stored = (workspaceId: string) => tdb.db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, workspaceId));

  it('POSTs to both slug paths are stored in that workspace only, processed like the shared path', async () => {
    const before = (await stored(shared.workspaceId)).length;
    for (const source of ['messaging', 'provider']) {
      const res = await postWebhook(server.url, fixture('inbound-text.json'), { path: `/webhooks/${source}/${tenant.workspaceSlug}`, secret: TENANT_SECRET });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ accepted: true, signatureValid: true, duplicate: false, summary: { topic: 'messages' } });
      const detail = await jsonRequest(`${server.url}/internal/webhooks/${res.body.webhookEventId}`, { headers: bearer(tenant.token) });
      expect(detail.body.webhook).toMatchObject({ source, topic: 'messages', signatureValid: true, outboxJob: { id: res.body.outboxJobId } });
    }
    expect(await stored(tenant.workspaceId)).toHaveLength(2);
    expect(await stored(shared.workspaceId)).toHaveLength(before);
  });

  it('the shared path still resolves to the platform-marked workspace', async () => {
    const res = await postWebhook(server.url, fixture('status-read.json'));
    expect(res.body).toMatchObject({ accepted: true });
    const detail = await jsonRequest(`${server.url}/internal/webhooks/${res.body.webhookEventId}`, { headers: bearer(shared.token) });
    expect(detail.status).toBe(200);
    expect((await jsonRequest(`${server.url}/internal/webhooks/${res.body.webhookEventId}`, { headers: bearer(tenant.token) })).status).toBe(404);
  });

  it("another workspace's secret does not verify on a tenant's URL: stored there as a rejection", async () => {
    const res = await postWebhook(server.url, fixture('inbound-text.json'), { path: `/webhooks/messaging/${tenant.workspaceSlug}`, secret: SIGNING_SECRET });
    expect(res).toMatchObject({ status: 200, body: { accepted: false, reason: 'invalid_signature' } });
    expect((await stored(tenant.workspaceId)).find((e) => e.id === res.body.webhookEventId)).toMatchObject({
      signatureValid: false,
      signatureError: 'mismatch',
    });
  });

  it('an unknown or malformed slug answers like a missing configuration and stores nothing', async () => {
    const total = async () => (await tdb.db.select().from(webhookEvents)).length;
    const before = await total();
    for (const slug of ['no-such-workspace', 'UPPER', '%00', 'a'.repeat(65), '-dash-']) {
      const res = await postWebhook(server.url, fixture('inbound-text.json'), { path: `/webhooks/messaging/${slug}`, secret: TENANT_SECRET });
      expect(res, slug).toEqual({ status: 503, body: { error: 'provider_ingress_not_configured' } });
    }
    expect(await total()).toBe(before);
  });

  it("the handshake on a slug URL checks that workspace's verify token", async () => {
    const hs = (slug: string, token: string) =>
      jsonRequest(`${server.url}/webhooks/messaging/${slug}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=c-42`);
    const ok = await hs(tenant.workspaceSlug, TENANT_TOKEN);
    expect(ok).toMatchObject({ status: 200, body: 'c-42' });
    expect(await hs(tenant.workspaceSlug, VERIFY_TOKEN)).toMatchObject({ status: 400, body: { ok: false, error: 'verification_failed' } });
    expect(await hs('no-such-workspace', TENANT_TOKEN)).toMatchObject({ status: 400, body: { ok: false, error: 'verification_failed' } });
    // The shared handshake keeps using the marked workspace's token.
    expect((await jsonRequest(`${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=s`)).status).toBe(200);
  });
});
