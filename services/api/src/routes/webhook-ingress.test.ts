import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sha256Hex, signProviderBody } from '@mos/core';
import { outboxJobs, webhookEvents, webhookRejections } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { eq } from 'drizzle-orm';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, SIGNING_SECRET, VERIFY_TOKEN } from '../testing/webhooks';

type Server = Awaited<ReturnType<typeof listen>>;

describe('provider webhook ingress', () => {
  let tdb: TestDatabase;
  let server: Server;
  let ws: Awaited<ReturnType<typeof seedIngressWorkspace>>;
  let deps: ReturnType<typeof testDeps>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // No cache: these tests change secrets between requests.
    deps = testDeps(tdb.db, { env: { WEBHOOK_INGRESS_CACHE_MS: '0' } });
    server = await listen(createApiApp(deps));
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  const events = () => tdb.db.select().from(webhookEvents);
  const jobs = () => tdb.db.select().from(outboxJobs);

  it('answers 503 provider_ingress_not_configured (storing nothing) until a workspace is configured', async () => {
    const res = await postWebhook(server.url, fixture('inbound-text.json'));
    expect(res).toEqual({ status: 503, body: { error: 'provider_ingress_not_configured' } });
    const hs = await jsonRequest(`${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
    expect(hs).toMatchObject({ status: 400, body: { ok: false, error: 'verification_failed' } });
    expect(await events()).toEqual([]);
    ws = await seedIngressWorkspace(deps);
  });

  it('handshake: echoes hub.challenge as text/plain for the right token, 400 otherwise', async () => {
    const ok = await fetch(`${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    for (const q of [
      `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=1`,
      `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      `hub.mode=subscribe&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`,
      ``,
    ]) {
      const res = await jsonRequest(`${server.url}/webhooks/messaging?${q}`);
      expect(res, q).toMatchObject({ status: 400, body: { ok: false, error: 'verification_failed' } });
    }
    // No verify token in the vault: nothing can match, not even an empty token.
    await deps.vault.remove(deps.db, ws.workspaceId, 'provider-verify-token');
    try {
      for (const token of [VERIFY_TOKEN, '']) {
        const res = await jsonRequest(`${server.url}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1`);
        expect(res).toMatchObject({ status: 400, body: { ok: false, error: 'verification_failed' } });
      }
    } finally {
      await deps.vault.set(deps.db, ws.workspaceId, 'provider-verify-token', VERIFY_TOKEN);
    }
  });

  it('valid signature: stores the envelope and one outbox job in one go, notifies the relay, answers the spec body', async () => {
    const listener = new pg.Client({ connectionString: tdb.url });
    await listener.connect();
    const notes: string[] = [];
    listener.on('notification', (n) => notes.push(`${n.channel}:${n.payload}`));
    await listener.query('LISTEN mos_outbox');
    try {
      const body = fixture('inbound-text.json');
      const res = await postWebhook(server.url, body, { deliveryId: 'dlv-1', headers: { cookie: 'a=b', authorization: 'Bearer x', 'x-extra': 'kept' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        accepted: true,
        requestId: expect.any(String),
        signatureValid: true,
        webhookEventId: expect.stringMatching(/^evt_/),
        outboxJobId: expect.stringMatching(/^job_/),
        duplicate: false,
        duplicateOfId: null,
        summary: { object: 'messaging_business_account', entries: 1, changeCount: 1, topic: 'messages', messageCount: 1, statusCount: 0 },
      });
      const [evt] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, res.body.webhookEventId));
      expect(evt).toMatchObject({
        workspaceId: ws.workspaceId,
        source: 'messaging',
        topic: 'messages',
        requestId: res.body.requestId,
        deliveryId: 'dlv-1',
        signatureValid: true,
        signatureError: null,
        bodyHash: sha256Hex(body),
        bodySize: body.length,
        accountId: '102290129340398',
        phoneNumberId: '106540352242922',
        displayPhoneNumber: '15550783881',
        normalizationStatus: 'pending',
        responseStatus: 200,
        duplicateOfId: null,
      });
      expect(evt!.rawBody!.equals(body)).toBe(true);
      expect(evt!.headers).toMatchObject({
        'x-extra': 'kept',
        'x-provider-delivery-id': 'dlv-1',
        'x-hub-signature-256': signProviderBody(SIGNING_SECRET, body),
      });
      expect(evt!.headers).not.toHaveProperty('cookie');
      expect(evt!.headers).not.toHaveProperty('authorization');
      expect(evt!.ingestMicros).toBeGreaterThan(0);
      expect(evt!.summary).toMatchObject({ topic: 'messages', phoneNumberId: '106540352242922' });
      const [job] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, res.body.outboxJobId));
      expect(job).toMatchObject({
        workspaceId: ws.workspaceId,
        jobType: 'process_webhook_event',
        status: 'pending',
        dedupKey: 'delivery:messaging:dlv-1',
        payload: { webhookEventId: evt!.id },
        // The conversation (business number, customer): its webhooks are applied in receipt order.
        orderingKey: 'conv:106540352242922:16505551234',
      });
      await expect.poll(() => notes).toContain(`mos_outbox:${job!.id}`);
    } finally {
      await listener.end();
    }
  });

  it('invalid, missing and malformed signatures, and a signature over re-serialized JSON: 200 accepted false, a rejection, no job', async () => {
    const body = fixture('status-read.json');
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(reserialized.equals(body)).toBe(false);
    const cases: [string, Parameters<typeof postWebhook>[2]][] = [
      ['mismatch', { secret: 'not-the-secret' }],
      ['missing', { signature: null }],
      ['malformed', { signature: 'sha1=deadbeef' }],
      ['mismatch', { signature: signProviderBody(SIGNING_SECRET, reserialized) }],
    ];
    const jobsBefore = (await jobs()).length;
    for (const [reason, opts] of cases) {
      const res = await postWebhook(server.url, body, { ...opts, deliveryId: 'dlv-bad' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        accepted: false,
        reason: 'invalid_signature',
        requestId: expect.any(String),
        webhookEventId: expect.stringMatching(/^evt_/),
        signatureValid: false,
        summary: { object: 'messaging_business_account', entries: 1, changeCount: 1, topic: 'message_status', messageCount: 0, statusCount: 1 },
      });
      const [evt] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, res.body.webhookEventId));
      expect(evt).toMatchObject({ signatureValid: false, signatureError: reason, normalizationStatus: 'skipped', topic: 'message_status' });
      const [rej] = await tdb.db.select().from(webhookRejections).where(eq(webhookRejections.webhookEventId, evt!.id));
      expect(rej).toMatchObject({
        id: expect.stringMatching(/^rej_/),
        workspaceId: ws.workspaceId,
        source: 'messaging',
        topic: 'invalid_signature',
        reason,
        signatureValid: false,
      });
    }
    expect((await jobs()).length).toBe(jobsBefore);
  });

  it('records every topic, including non-JSON and wrong-shape bodies (which still get a job when signed)', async () => {
    // The third column: the job's ordering key (null: not an envelope, nothing to order by).
    const cases: [Buffer | string, string, string | null][] = [
      [fixture('inbound-image.json'), 'messages', 'conv:106540352242922:16505551234'],
      [fixture('status-delivered.json'), 'message_status', 'conv:106540352242922:16505551234'],
      [fixture('template-approved.json'), 'unknown', 'tpl:102290129340398:1689556908129832'],
      [fixture('unknown-field.json'), 'unknown', 'acct:102290129340398'],
      [fixture('async-error.json'), 'unknown', 'acct:102290129340398'],
      ['this is not json', 'invalid_json', null],
      ['', 'invalid_json', null],
      ['{"object":"page","entry":[]}', 'invalid_payload', null],
      ['[1,2,3]', 'invalid_payload', null],
    ];
    for (const [body, topic, orderingKey] of cases) {
      const res = await postWebhook(server.url, body);
      expect(res.status, topic).toBe(200);
      expect(res.body).toMatchObject({ accepted: true, summary: { topic } });
      const [evt] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, res.body.webhookEventId));
      expect(evt).toMatchObject({ topic, deliveryId: null, normalizationStatus: 'pending' });
      const [job] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, res.body.outboxJobId));
      expect(job!.dedupKey).toBe(`event:${evt!.id}`);
      expect(job!.orderingKey, topic).toBe(orderingKey);
    }
  });

  it('/webhooks/provider is labelled provider', async () => {
    const res = await postWebhook(server.url, fixture('status-sent.json'), { path: '/webhooks/provider', deliveryId: 'dlv-1' });
    expect(res.body).toMatchObject({ accepted: true, duplicate: false });
    const [evt] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, res.body.webhookEventId));
    expect(evt!.source).toBe('provider');
    const [job] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, res.body.outboxJobId));
    // Dedup keys are per source: dlv-1 on /webhooks/messaging is a different delivery.
    expect(job!.dedupKey).toBe('delivery:provider:dlv-1');
  });

  it('dedup: a repeated delivery id is stored as a duplicate row pointing at the first, with no new job, even concurrently', async () => {
    const body = fixture('status-read.json');
    const first = await postWebhook(server.url, body, { deliveryId: 'dlv-dup' });
    const again = await postWebhook(server.url, body, { deliveryId: 'dlv-dup' });
    expect(again.body).toMatchObject({
      accepted: true,
      signatureValid: true,
      duplicate: true,
      duplicateOfId: first.body.webhookEventId,
      outboxJobId: first.body.outboxJobId,
    });
    expect(again.body.webhookEventId).not.toBe(first.body.webhookEventId);
    const [dup] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, again.body.webhookEventId));
    expect(dup).toMatchObject({ duplicateOfId: first.body.webhookEventId, normalizationStatus: 'duplicate' });
    expect((await jobs()).filter((j) => j.dedupKey === 'delivery:messaging:dlv-dup')).toHaveLength(1);

    const burst = await Promise.all(Array.from({ length: 6 }, () => postWebhook(server.url, body, { deliveryId: 'dlv-race' })));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(burst.filter((r) => !r.body.duplicate)).toHaveLength(1);
    expect(new Set(burst.map((r) => r.body.outboxJobId)).size).toBe(1);
    expect((await jobs()).filter((j) => j.dedupKey === 'delivery:messaging:dlv-race')).toHaveLength(1);
  });

  it('no secret configured: stored with signatureValid false and a no_secret rejection', async () => {
    await deps.vault.remove(deps.db, ws.workspaceId, 'webhook-signing-secret');
    try {
      const res = await postWebhook(server.url, fixture('inbound-text.json'));
      expect(res).toMatchObject({ status: 200, body: { accepted: false, reason: 'invalid_signature', signatureValid: false } });
      const [rej] = await tdb.db.select().from(webhookRejections).where(eq(webhookRejections.webhookEventId, res.body.webhookEventId));
      expect(rej!.reason).toBe('no_secret');
    } finally {
      await deps.vault.set(deps.db, ws.workspaceId, 'webhook-signing-secret', SIGNING_SECRET);
    }
  });

  it('counts what it did in the runtime snapshot', async () => {
    const res = await jsonRequest(`${server.url}/internal/runtime`, { headers: bearer(ws.token) });
    expect(res.status).toBe(200);
    expect(res.body.runtime.ingress).toMatchObject({ accepted: expect.any(Number), rejected: 5, duplicates: 6, tooLarge: 0 });
    // Unresolvable requests belong to no workspace: platform metrics only.
    expect(res.body.runtime.ingress).not.toHaveProperty('notConfigured');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('mos_webhook_ingress_requests_total{outcome="notConfigured"} 1');
  });
});
