import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, outboxJobs, webhookEvents, webhookRejections } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, withEnv } from '../testing/webhooks';

/** The ingress's refusals: 413, 429, and 503 when the store is unreachable or fails mid-transaction. */
describe('provider webhook ingress limits and failures', () => {
  let tdb: TestDatabase;
  let op: Awaited<ReturnType<typeof seedIngressWorkspace>>;
  let base: AppDeps;
  const counts = async () => ({
    events: (await tdb.db.select().from(webhookEvents)).length,
    jobs: (await tdb.db.select().from(outboxJobs)).length,
    rejections: (await tdb.db.select().from(webhookRejections)).length,
  });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    base = testDeps(tdb.db);
    op = await seedIngressWorkspace(base);
  });
  afterAll(async () => tdb?.drop());

  it('413 over the body limit, counted in the runtime snapshot, nothing stored', async () => {
    const deps = withEnv(base, { WEBHOOK_BODY_LIMIT_BYTES: '2048' });
    const server = await listen(createApiApp(deps));
    try {
      const before = await counts();
      const big = Buffer.from(JSON.stringify({ object: 'messaging_business_account', entry: [], pad: 'x'.repeat(4096) }));
      const res = await postWebhook(server.url, big);
      expect(res).toEqual({ status: 413, body: { error: 'payload_too_large' } });
      const atLimit = Buffer.from(JSON.stringify({ object: 'messaging_business_account', entry: [], pad: 'x'.repeat(1900) }));
      expect(atLimit.length).toBeLessThanOrEqual(2048);
      expect((await postWebhook(server.url, atLimit)).status).toBe(200);
      expect(await counts()).toEqual({ ...before, events: before.events + 1, jobs: before.jobs + 1 });
      const rt = await jsonRequest(`${server.url}/internal/runtime`, { headers: bearer(op.token) });
      expect(rt.body.runtime.ingress).toMatchObject({ received: 2, tooLarge: 1, accepted: 1 });
    } finally {
      await server.close();
    }
  });

  it('429 past the per-source rate, counted, nothing stored for refused requests; the other source has its own budget', async () => {
    const deps = withEnv(base, { WEBHOOK_RATE_LIMIT_PER_SECOND: '3' });
    const server = await listen(createApiApp(deps));
    try {
      const before = await counts();
      const results = await Promise.all(Array.from({ length: 8 }, () => postWebhook(server.url, fixture('status-read.json'))));
      const ok = results.filter((r) => r.status === 200).length;
      const limited = results.filter((r) => r.status === 429);
      expect(ok).toBe(3);
      expect(limited).toHaveLength(5);
      expect(limited[0]!.body).toEqual({ error: 'rate_limited' });
      const other = await postWebhook(server.url, fixture('status-read.json'), { path: '/webhooks/provider' });
      expect(other.status).toBe(200);
      expect((await counts()).events).toBe(before.events + 4);
      const rt = await jsonRequest(`${server.url}/internal/runtime`, { headers: bearer(op.token) });
      // Refused before any workspace is known: a platform figure, not the tenant's.
      expect(rt.body.runtime.ingress).toMatchObject({ received: 4, accepted: 4 });
      expect(rt.body.runtime.ingress).not.toHaveProperty('rateLimited');
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('mos_webhook_ingress_requests_total{outcome="rateLimited"} 5');
      expect(metrics).toContain('mos_webhook_ingress_requests_total{outcome="received"} 9');
    } finally {
      await server.close();
    }
  });

  it('429 for a flood of handshakes too: the GET shares the messaging budget', async () => {
    const deps = withEnv(base, { WEBHOOK_RATE_LIMIT_PER_SECOND: '2' });
    const server = await listen(createApiApp(deps));
    try {
      const url = `${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=c`;
      const statuses = (await Promise.all(Array.from({ length: 5 }, () => fetch(url)))).map((r) => r.status).sort();
      expect(statuses).toEqual([400, 400, 429, 429, 429]);
    } finally {
      await server.close();
    }
  });

  it('503 service_unavailable when the database cannot be reached at all', async () => {
    const dead = createDatabase('postgres://mos@127.0.0.1:1/none', { max: 1 });
    const server = await listen(createApiApp(testDeps(dead.db)));
    try {
      expect(await postWebhook(server.url, fixture('inbound-text.json'))).toEqual({ status: 503, body: { error: 'service_unavailable' } });
      const hs = await jsonRequest(`${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
      expect(hs).toMatchObject({ status: 503, body: { error: 'service_unavailable' } });
    } finally {
      await server.close();
      await dead.close();
    }
  });

  it('503 when the database stops accepting connections after the workspace was cached; nothing half-written', async () => {
    // Its own pool, so terminating its connections does not disturb the suite's.
    const db = createDatabase(tdb.url, { max: 2 });
    // ALTER DATABASE must come from another database.
    const adminUrl = new URL(tdb.url);
    adminUrl.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    const server = await listen(createApiApp({ ...withEnv(base, { WEBHOOK_INGRESS_CACHE_MS: '60000' }), db: db.db }));
    try {
      expect((await postWebhook(server.url, fixture('inbound-text.json'))).status).toBe(200);
      const before = await counts();
      await admin.query(`ALTER DATABASE ${tdb.name} WITH ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [tdb.name]);
      const res = await postWebhook(server.url, fixture('inbound-text.json'), { deliveryId: 'dlv-while-down' });
      expect(res).toEqual({ status: 503, body: { error: 'service_unavailable' } });
      await admin.query(`ALTER DATABASE ${tdb.name} WITH ALLOW_CONNECTIONS true`);
      expect(await counts()).toEqual(before);
      // The provider's retry lands once the store is back, with its delivery id still unused.
      const retry = await postWebhook(server.url, fixture('inbound-text.json'), { deliveryId: 'dlv-while-down' });
      expect(retry.body).toMatchObject({ accepted: true, duplicate: false });
    } finally {
      await admin.query(`ALTER DATABASE ${tdb.name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
      await server.close();
      await db.close();
    }
  });

  it('503 when the connection dies mid-transaction: the job written before the failure is rolled back', async () => {
    const deps = withEnv(base, { WEBHOOK_INGRESS_CACHE_MS: '0' });
    const server = await listen(createApiApp(deps));
    // The server process kills its own connection when the event row (written after the job) arrives.
    await tdb.pool.query(`
      CREATE FUNCTION die_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
      CREATE TRIGGER die BEFORE INSERT ON webhook_events FOR EACH ROW WHEN (NEW.delivery_id = 'dlv-die') EXECUTE FUNCTION die_on_insert();
      CREATE TRIGGER die BEFORE INSERT ON webhook_rejections FOR EACH ROW WHEN (NEW.source = 'provider') EXECUTE FUNCTION die_on_insert();`);
    try {
      const before = await counts();
      const valid = await postWebhook(server.url, fixture('inbound-text.json'), { deliveryId: 'dlv-die' });
      expect(valid).toEqual({ status: 503, body: { error: 'service_unavailable' } });
      // Invalid signature: the event row is written, then the rejection insert kills the connection.
      const invalid = await postWebhook(server.url, fixture('inbound-text.json'), { path: '/webhooks/provider', secret: 'wrong' });
      expect(invalid).toEqual({ status: 503, body: { error: 'service_unavailable' } });
      expect(await counts()).toEqual(before);
      const rt = await jsonRequest(`${server.url}/internal/runtime`, { headers: bearer(op.token) });
      expect(rt.body.runtime.ingress).toMatchObject({ unavailable: 2 });
    } finally {
      await tdb.pool.query(`DROP TRIGGER die ON webhook_events; DROP TRIGGER die ON webhook_rejections; DROP FUNCTION die_on_insert();`);
      await server.close();
    }
  });
});
