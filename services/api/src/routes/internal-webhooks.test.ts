import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PROVIDER_CONSTRAINTS } from '@mos/core';
import { campaigns, finishWebhookProcessing, outboxJobs, setProviderIngressWorkspace, webhookDeliveries, webhookEvents } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { seedJourney, seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, withEnv } from '../testing/webhooks';

describe('/internal webhook operator endpoints', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let server: Awaited<ReturnType<typeof listen>>;
  let a: SeededOperator;
  let b: SeededOperator;
  let viewerA: SeededOperator;
  const ids = { valid: '', invalid: '', dup: '', rejection: '', delivery: '', bDelivery: '', bEvent: '' };

  const get = (path: string, op: SeededOperator) => jsonRequest(`${server.url}${path}`, { headers: bearer(op.token) });
  const post = (path: string, op: SeededOperator) => jsonRequest(`${server.url}${path}`, { method: 'POST', headers: bearer(op.token) });

  /** What the worker records after processing a job (its real query function). */
  async function processed(workspaceId: string, webhookEventId: string, jobId: string, deliveryId: string) {
    await finishWebhookProcessing(deps.db, workspaceId, {
      deliveryId,
      webhookEventId,
      jobId,
      topic: 'messages',
      status: 'processed',
      families: [],
      error: null,
      now: new Date(),
    });
  }

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // A UI address of its own (trailing slash dropped by the config), so the links below come from the env.
    deps = withEnv(testDeps(tdb.db), { WEBHOOK_INGRESS_CACHE_MS: '0', TEMPORAL_UI_URL: 'http://temporal-ui.test:8080/', TEMPORAL_NAMESPACE: 'default' });
    server = await listen(createApiApp(deps));
    a = await seedIngressWorkspace(deps);
    viewerA = await seedOperator(deps, { workspace: a.workspaceSlug, role: 'viewer' });
    const v = await postWebhook(server.url, fixture('inbound-text.json'), { deliveryId: 'a-1' });
    ids.valid = v.body.webhookEventId;
    ids.dup = (await postWebhook(server.url, fixture('inbound-text.json'), { deliveryId: 'a-1' })).body.webhookEventId;
    await postWebhook(server.url, fixture('status-read.json'), { path: '/webhooks/provider' });
    ids.invalid = (await postWebhook(server.url, Buffer.from([0xff, 0x00, 0x7b]), { secret: 'wrong' })).body.webhookEventId;
    ids.delivery = 'del_a_processed';
    await processed(a.workspaceId, ids.valid, v.body.outboxJobId, ids.delivery);

    // Workspace B takes over provider ingress and receives its own deliveries.
    b = await seedIngressWorkspace(deps);
    await setProviderIngressWorkspace(deps.db, b.workspaceId);
    const vb = await postWebhook(server.url, fixture('status-sent.json'), { deliveryId: 'b-1' });
    ids.bEvent = vb.body.webhookEventId;
    await postWebhook(server.url, fixture('status-sent.json'), { signature: null });
    ids.bDelivery = 'del_b_processed';
    await processed(b.workspaceId, ids.bEvent, vb.body.outboxJobId, ids.bDelivery);
    await post(`/internal/webhooks/${ids.bEvent}/replay`, b);
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  it('requires a session', async () => {
    for (const path of ['/internal/webhooks', '/internal/webhook-events', '/internal/webhook-rejections', '/internal/audit-logs', '/internal/runtime']) {
      expect((await jsonRequest(`${server.url}${path}`)).status).toBe(401);
    }
  });

  it('GET /internal/webhooks lists newest first with topic, status and source filters', async () => {
    const all = await get('/internal/webhooks', a);
    expect(all.status).toBe(200);
    expect(all.body.webhooks).toHaveLength(4);
    expect(all.body.webhooks[0]).toEqual({
      id: ids.invalid,
      source: 'messaging',
      topic: 'invalid_json',
      deliveryId: null,
      signatureValid: false,
      bodyHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      receivedAt: expect.any(String),
      normalizationStatus: 'skipped',
      duplicateOfId: null,
      replayOfId: null,
    });
    const byTopic = await get('/internal/webhooks?topic=messages', a);
    expect(byTopic.body.webhooks.map((w: any) => w.id).sort()).toEqual([ids.valid, ids.dup].sort());
    expect((await get('/internal/webhooks?status=duplicate', a)).body.webhooks.map((w: any) => w.id)).toEqual([ids.dup]);
    expect((await get('/internal/webhooks?status=processed', a)).body.webhooks.map((w: any) => w.id)).toEqual([ids.valid]);
    expect((await get('/internal/webhooks?source=provider', a)).body.webhooks).toHaveLength(1);
    expect((await get('/internal/webhooks?source=provider&topic=messages', a)).body.webhooks).toHaveLength(0);
    expect((await get('/internal/webhooks?limit=2&offset=1', a)).body.webhooks.map((w: any) => w.id)).toEqual(
      all.body.webhooks.slice(1, 3).map((w: any) => w.id),
    );
    for (const q of ['topic=bogus', 'status=done', 'source=other']) {
      const res = await get(`/internal/webhooks?${q}`, a);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_query', message: expect.stringContaining(q.split('=')[0]!) });
    }
  });

  it('every limit and offset boundary answers 400 invalid_query naming the parameter', async () => {
    const cases: [string, number][] = [
      ['/internal/webhooks', 200],
      ['/internal/webhook-rejections', 200],
      ['/internal/webhook-events', 100],
      ['/internal/audit-logs', 100],
    ];
    for (const [path, max] of cases) {
      // 100 and 101 are the named boundaries; for the 200-max listings both are inside.
      for (const ok of ['1', '100', String(max), ...(max > 100 ? ['101'] : [])])
        expect((await get(`${path}?limit=${ok}`, a)).status, `${path} ${ok}`).toBe(200);
      for (const bad of ['0', String(max + 1), '-1', 'abc', '1.5']) {
        const res = await get(`${path}?limit=${bad}`, a);
        expect(res.status, `${path} limit=${bad}`).toBe(400);
        expect(res.body).toEqual({ error: 'invalid_query', message: expect.stringContaining('limit') });
      }
    }
    expect((await get('/internal/webhook-events?limit=1', a)).body.webhookDeliveries).toHaveLength(1);
    expect((await get('/internal/audit-logs?limit=100', a)).status).toBe(200);
    for (const path of ['/internal/webhooks', '/internal/webhook-rejections']) {
      for (const bad of ['-1', 'x', '1.5']) {
        const res = await get(`${path}?offset=${bad}`, a);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'invalid_query', message: expect.stringContaining('offset') });
      }
      expect((await get(`${path}?offset=0`, a)).status).toBe(200);
    }
  });

  it('GET /internal/webhooks/{id}: the full stored record, raw body as base64 and text; 404 otherwise', async () => {
    const res = await get(`/internal/webhooks/${ids.valid}`, a);
    expect(res.status).toBe(200);
    const w = res.body.webhook;
    expect(Buffer.from(w.rawBodyBase64, 'base64').equals(fixture('inbound-text.json'))).toBe(true);
    expect(w.rawBodyText).toBe(fixture('inbound-text.json').toString('utf8'));
    expect(w).toMatchObject({
      id: ids.valid,
      source: 'messaging',
      topic: 'messages',
      deliveryId: 'a-1',
      signatureValid: true,
      signatureError: null,
      normalizationStatus: 'processed',
      headers: expect.objectContaining({ 'x-provider-delivery-id': 'a-1', 'content-type': 'application/json' }),
      query: {},
      accountId: '102290129340398',
      phoneNumberId: '106540352242922',
      summary: expect.objectContaining({ topic: 'messages', messageCount: 1 }),
      responseStatus: 200,
      outboxJob: { jobType: 'process_webhook_event', dedupKey: 'delivery:messaging:a-1', payload: { webhookEventId: ids.valid } },
      replay: { replayOfId: null, replayedBy: null, replays: [] },
    });
    const dup = (await get(`/internal/webhooks/${ids.dup}`, a)).body.webhook;
    expect(dup).toMatchObject({ duplicateOfId: ids.valid, outboxJob: { id: w.outboxJob.id } });
    const bad = (await get(`/internal/webhooks/${ids.invalid}`, a)).body.webhook;
    expect(bad).toMatchObject({
      rawBodyText: null,
      rawBodyBase64: Buffer.from([0xff, 0x00, 0x7b]).toString('base64'),
      signatureError: 'mismatch',
      outboxJob: null,
    });
    expect(await get('/internal/webhooks/evt_nope', a)).toMatchObject({ status: 404, body: { error: 'webhook_not_found' } });
  });

  it('GET /internal/webhooks/{id}: processing names the Temporal run that handled the event and links to it', async () => {
    const processing = async (id: string) => (await get(`/internal/webhooks/${id}`, a)).body.webhook.processing;
    const none = { workflowId: null, runId: null, temporalUiUrl: null };
    // No run has touched these: a duplicate (never processed itself) and an unsigned delivery.
    expect(await processing(ids.dup)).toEqual(none);
    expect(await processing(ids.invalid)).toEqual(none);

    const setRun = (workflowId: string | null, runId: string | null) =>
      tdb.db.update(webhookEvents).set({ workflowId, runId }).where(eq(webhookEvents.id, ids.dup));
    await setRun('webhook-batch-x', 'r1');
    expect(await processing(ids.dup)).toEqual({
      workflowId: 'webhook-batch-x',
      runId: 'r1',
      temporalUiUrl: 'http://temporal-ui.test:8080/namespaces/default/workflows/webhook-batch-x/r1/history',
    });
    // Run not known yet: the workflow's latest run.
    await setRun(`webhook-${ids.dup}`, null);
    expect(await processing(ids.dup)).toEqual({
      workflowId: `webhook-${ids.dup}`,
      runId: null,
      temporalUiUrl: `http://temporal-ui.test:8080/namespaces/default/workflows/webhook-${ids.dup}`,
    });
    // Ids are not secrets: a viewer sees the same link.
    expect((await get(`/internal/webhooks/${ids.dup}`, viewerA)).body.webhook.processing).toEqual(await processing(ids.dup));
    // Without a configured UI (production without TEMPORAL_UI_URL) the ids stay, the link goes.
    const noUi = await listen(createApiApp({ ...deps, env: { ...deps.env, TEMPORAL_UI_URL: null } }));
    try {
      const res = await jsonRequest(`${noUi.url}/internal/webhooks/${ids.dup}`, { headers: bearer(a.token) });
      expect(res.body.webhook.processing).toEqual({ workflowId: `webhook-${ids.dup}`, runId: null, temporalUiUrl: null });
    } finally {
      await noUi.close();
    }
    await setRun(null, null);
  });

  it('a viewer reads the same record with the body redacted: structure and operational fields, no numbers or words', async () => {
    const w = (await get(`/internal/webhooks/${ids.valid}`, viewerA)).body.webhook;
    expect(w).toMatchObject({ id: ids.valid, topic: 'messages', rawBodyBase64: null, rawBodyRedaction: 'redacted_for_viewer' });
    const body = JSON.parse(w.rawBodyText);
    const original = JSON.parse(fixture('inbound-text.json').toString('utf8'));
    const value = body.entry[0].changes[0].value;
    expect(body.object).toBe(original.object);
    expect(value.messages[0]).toMatchObject({
      id: original.entry[0].changes[0].value.messages[0].id,
      type: 'text',
      from: '[redacted]',
      text: { body: '[redacted]' },
    });
    expect(value.contacts[0]).toMatchObject({ wa_id: '[redacted]', profile: { name: '[redacted]' } });
    const personal = [value.messages[0].from, original.entry[0].changes[0].value.messages[0].from, original.entry[0].changes[0].value.messages[0].text.body];
    for (const p of personal.slice(1)) expect(w.rawBodyText).not.toContain(p);
    // Non-JSON bytes are hidden whole.
    const bad = (await get(`/internal/webhooks/${ids.invalid}`, viewerA)).body.webhook;
    expect(bad).toMatchObject({ rawBodyText: null, rawBodyBase64: null, rawBodyRedaction: 'redacted_for_viewer' });
  });

  it('POST /internal/webhooks/{id}/replay clones the raw body into a new event and job, audits it, leaves the original alone', async () => {
    const [before] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, ids.valid));
    const res = await post(`/internal/webhooks/${ids.valid}/replay`, a);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accepted: true,
      replayedFromId: ids.valid,
      webhookEvent: { id: expect.stringMatching(/^evt_/), source: 'messaging', topic: 'messages', receivedAt: expect.any(String) },
      outboxJob: { id: expect.stringMatching(/^job_/), jobType: 'process_webhook_event', status: 'pending' },
    });
    const again = await post(`/internal/webhooks/${ids.valid}/replay`, a);
    expect(again.body.outboxJob.id).not.toBe(res.body.outboxJob.id);

    const [after] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, ids.valid));
    expect(after).toEqual(before);
    const [clone] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, res.body.webhookEvent.id));
    expect(clone).toMatchObject({
      workspaceId: a.workspaceId,
      replayOfId: ids.valid,
      replayedBy: a.memberId,
      signatureValid: true,
      normalizationStatus: 'pending',
      bodyHash: before!.bodyHash,
      deliveryId: 'a-1',
    });
    expect(clone!.rawBody!.equals(before!.rawBody!)).toBe(true);
    const [job] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, res.body.outboxJob.id));
    expect(job).toMatchObject({ dedupKey: `replay:${clone!.id}`, status: 'pending', payload: { webhookEventId: clone!.id } });
    // Ordered with the same conversation's webhooks, exactly as the original's ingress job was.
    const [originalJob] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.dedupKey, 'delivery:messaging:a-1'));
    expect(originalJob!.orderingKey).toBe('conv:106540352242922:16505551234');
    expect(job!.orderingKey).toBe(originalJob!.orderingKey);

    const audit = (await get('/internal/audit-logs', a)).body.auditLogEntries;
    expect(audit[0]).toEqual({
      id: expect.stringMatching(/^aud_/),
      action: 'webhook.replay',
      targetId: ids.valid,
      actorId: a.memberId,
      createdAt: expect.any(String),
      details: { webhookEventId: again.body.webhookEvent.id, outboxJobId: again.body.outboxJob.id },
    });
    expect(audit[1]).toMatchObject({ action: 'webhook.replay', details: { webhookEventId: clone!.id } });
    const detail = (await get(`/internal/webhooks/${ids.valid}`, a)).body.webhook;
    expect(detail.replay.replays.map((r: any) => r.id)).toEqual([clone!.id, again.body.webhookEvent.id]);
    expect((await get(`/internal/webhooks/${clone!.id}`, a)).body.webhook).toMatchObject({
      replay: { replayOfId: ids.valid, replayedBy: a.memberId },
      outboxJob: { id: job!.id },
    });
  });

  it('replay refusals: unknown id 404, unsigned original 409, viewer 403', async () => {
    expect(await post('/internal/webhooks/evt_nope/replay', a)).toMatchObject({ status: 404, body: { error: 'webhook_not_found' } });
    expect(await post(`/internal/webhooks/${ids.invalid}/replay`, a)).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect(await post(`/internal/webhooks/${ids.valid}/replay`, viewerA)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await post(`/internal/webhook-events/${ids.delivery}/replay`, viewerA)).toMatchObject({ status: 403 });
  });

  it('GET /internal/webhook-events and POST .../{del_id}/replay (202, a new pending delivery for the new job)', async () => {
    const list = await get('/internal/webhook-events', a);
    expect(list.body.webhookDeliveries).toEqual([
      {
        id: ids.delivery,
        webhookEventId: ids.valid,
        jobId: expect.any(String),
        topic: 'messages',
        status: 'processed',
        error: null,
        processedAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const [orig] = await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, ids.delivery));
    const res = await post(`/internal/webhook-events/${ids.delivery}/replay`, a);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: true,
      delivery: { id: expect.stringMatching(/^del_/), status: 'pending' },
      job: { id: expect.stringMatching(/^job_/), status: 'pending' },
    });
    const [pending] = await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, res.body.delivery.id));
    expect(pending).toMatchObject({ jobId: res.body.job.id, status: 'pending' });
    const [evt] = await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, pending!.webhookEventId));
    expect(evt).toMatchObject({ replayOfId: ids.valid, replayedBy: a.memberId, responseStatus: 202 });
    const [replayJob] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, res.body.job.id));
    expect(replayJob!.orderingKey).toBe('conv:106540352242922:16505551234');
    expect((await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, ids.delivery)))[0]).toEqual(orig);
    const audit = (await get('/internal/audit-logs?limit=1', a)).body.auditLogEntries;
    expect(audit).toEqual([expect.objectContaining({ action: 'webhook_delivery.replay', targetId: ids.delivery, actorId: a.memberId })]);
    // The worker's outcome lands on the same row.
    await processed(a.workspaceId, evt!.id, res.body.job.id, 'del_ignored_new_id');
    expect((await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, res.body.delivery.id)))[0]).toMatchObject({ status: 'processed' });
    expect(await post('/internal/webhook-events/del_nope/replay', a)).toMatchObject({ status: 404, body: { error: 'webhook_delivery_not_found' } });
  });

  it('GET /internal/webhook-rejections and /{id}', async () => {
    const list = await get('/internal/webhook-rejections', a);
    expect(list.body.webhookRejections).toEqual([
      {
        id: expect.stringMatching(/^rej_/),
        webhookEventId: ids.invalid,
        source: 'messaging',
        topic: 'invalid_signature',
        reason: 'mismatch',
        signatureValid: false,
        receivedAt: expect.any(String),
      },
    ]);
    const id = list.body.webhookRejections[0].id;
    expect(await get(`/internal/webhook-rejections/${id}`, a)).toMatchObject({ status: 200, body: { webhookRejection: { id, reason: 'mismatch' } } });
    expect(await get('/internal/webhook-rejections/rej_nope', a)).toMatchObject({ status: 404, body: { error: 'webhook_rejection_not_found' } });
  });

  it('GET /internal/runtime, /campaigns, /journeys', async () => {
    const res = await get('/internal/runtime', a);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      runtime: {
        buildVersion: expect.any(String),
        environment: 'test',
        queueDepth: expect.any(Number),
        workerStatus: 'absent',
        ingress: expect.any(Object),
        // No worker runs in this suite: nothing in flight, no batch sizes reported.
        pipeline: { batchesInFlight: 0, jobsInBatches: 0, jobsRetrying: 0, batchSizes: {} },
      },
      campaigns: [],
      journeys: [],
      providerConstraints: PROVIDER_CONSTRAINTS,
    });
    // Each workspace sees only its own share of the process's ingress counters.
    expect(res.body.runtime.ingress).toEqual({ received: 4, accepted: 2, duplicates: 1, rejected: 1, tooLarge: 0, unavailable: 0, since: expect.any(String) });
    expect((await get('/internal/runtime', b)).body.runtime.ingress).toEqual({
      received: 2,
      accepted: 1,
      duplicates: 0,
      rejected: 1,
      tooLarge: 0,
      unavailable: 0,
      since: expect.any(String),
    });
    expect(res.body.webhooks.length).toBeLessThanOrEqual(10);
    expect(res.body.webhooks.every((w: any) => typeof w.id === 'string')).toBe(true);
    expect(res.body.outboxJobs[0]).toMatchObject({ jobType: 'process_webhook_event' });
    expect(res.body.runtime.queueDepth).toBe(res.body.outboxJobs.filter((j: any) => j.status === 'pending').length);

    // The pipeline block counts this workspace's jobs only: a batch carrying one of A's webhooks
    // shows for A, not for B.
    const pending = res.body.outboxJobs.find((j: any) => j.status === 'pending');
    await deps.db
      .update(outboxJobs)
      .set({ status: 'dispatched', batchId: pending.id })
      .where(and(eq(outboxJobs.workspaceId, a.workspaceId), eq(outboxJobs.id, pending.id)));
    try {
      expect((await get('/internal/runtime', a)).body.runtime.pipeline).toMatchObject({ batchesInFlight: 1, jobsInBatches: 1, jobsRetrying: 0 });
      expect((await get('/internal/runtime', b)).body.runtime.pipeline).toMatchObject({ batchesInFlight: 0, jobsInBatches: 0, jobsRetrying: 0 });
    } finally {
      await deps.db
        .update(outboxJobs)
        .set({ status: 'pending', batchId: null })
        .where(and(eq(outboxJobs.workspaceId, a.workspaceId), eq(outboxJobs.id, pending.id)));
    }
    expect(await get('/internal/campaigns', a)).toMatchObject({ status: 200, body: { campaigns: [] } });
    expect(await get('/internal/journeys', a)).toMatchObject({ status: 200, body: { journeys: [] } });

    // Once they exist, the snapshot lists every campaign and journey of the workspace (and only its own).
    const journeyId = await seedJourney(deps.db, a.workspaceId, { name: 'Welcome', steps: [{ id: 'x', type: 'exit' }] });
    await deps.db
      .insert(campaigns)
      .values({ id: 'cmp_runtimetest0000000000000000', workspaceId: a.workspaceId, name: 'Spring', template: { name: 'promo', language: 'en' } });
    const withBoth = (await get('/internal/runtime', a)).body;
    expect(withBoth.campaigns).toEqual([{ id: 'cmp_runtimetest0000000000000000', name: 'Spring', status: 'draft', templateName: 'promo' }]);
    expect(withBoth.journeys).toEqual([expect.objectContaining({ id: journeyId, name: 'Welcome', status: 'active', triggerType: 'api' })]);
    expect((await get('/internal/runtime', b)).body).toMatchObject({ campaigns: [], journeys: [] });
  });

  it("isolation: each workspace sees only its own rows on every endpoint, and the other one's ids are 404", async () => {
    const aIds = new Set((await get('/internal/webhooks?limit=200', a)).body.webhooks.map((w: any) => w.id));
    const bList = (await get('/internal/webhooks?limit=200', b)).body.webhooks;
    expect(bList.length).toBe(3);
    expect(bList.some((w: any) => aIds.has(w.id))).toBe(false);
    const bDeliveries = (await get('/internal/webhook-events?limit=100', b)).body.webhookDeliveries;
    expect(bDeliveries.map((d: any) => d.id)).toEqual([ids.bDelivery]);
    const bRejections = (await get('/internal/webhook-rejections', b)).body.webhookRejections;
    expect(bRejections.map((r: any) => r.reason)).toEqual(['missing']);
    const bAudit = (await get('/internal/audit-logs?limit=100', b)).body.auditLogEntries;
    expect(bAudit.every((e: any) => e.actorId === b.memberId)).toBe(true);
    expect(bAudit).toHaveLength(1);
    const bRuntime = (await get('/internal/runtime', b)).body;
    expect(bRuntime.webhooks.some((w: any) => aIds.has(w.id))).toBe(false);
    expect(bRuntime.outboxJobs.every((j: any) => !aIds.has(j.payload.webhookEventId))).toBe(true);

    // A's campaign and journey (seeded by the runtime test) are A's alone.
    expect((await get('/internal/campaigns', a)).body.campaigns).toHaveLength(1);
    expect((await get('/internal/journeys', a)).body.journeys).toHaveLength(1);
    expect(await get('/internal/campaigns', b)).toMatchObject({ status: 200, body: { campaigns: [] } });
    expect(await get('/internal/journeys', b)).toMatchObject({ status: 200, body: { journeys: [] } });

    const aRejection = (await get('/internal/webhook-rejections', a)).body.webhookRejections[0].id;
    expect(await get(`/internal/webhooks/${ids.valid}`, b)).toMatchObject({ status: 404, body: { error: 'webhook_not_found' } });
    expect(await post(`/internal/webhooks/${ids.valid}/replay`, b)).toMatchObject({ status: 404, body: { error: 'webhook_not_found' } });
    expect(await post(`/internal/webhook-events/${ids.delivery}/replay`, b)).toMatchObject({ status: 404, body: { error: 'webhook_delivery_not_found' } });
    expect(await get(`/internal/webhook-rejections/${aRejection}`, b)).toMatchObject({ status: 404, body: { error: 'webhook_rejection_not_found' } });
    expect(await get(`/internal/webhooks/${ids.bEvent}`, a)).toMatchObject({ status: 404 });
    expect(await post(`/internal/webhook-events/${ids.bDelivery}/replay`, a)).toMatchObject({ status: 404 });
  });
});
