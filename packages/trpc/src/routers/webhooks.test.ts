import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { signProviderBody } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import type { AppDeps } from '@mos/app';
import { createCaller } from '../router';
import { authenticate } from '@mos/app';
import { ingestProviderWebhook } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';

/** The tRPC twins of the /internal webhook routes call the same service functions; a smoke of each. */
describe('webhooks, webhookDeliveries, webhookRejections, auditLogs, runtime procedures', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let other: SeededOperator;
  let eventId: string;

  const caller = async (op: SeededOperator) => createCaller({ deps, actor: await authenticate(deps, op.token), requestId: 'req_test' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_UI_URL: 'http://temporal-ui.test:8080', TEMPORAL_NAMESPACE: 'default' } });
    owner = await seedOperator(deps, { providerIngress: true });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    other = await seedOperator(deps);
    const raw = Buffer.from('{"object":"messaging_business_account","entry":[]}');
    const out = await ingestProviderWebhook(
      deps,
      { workspaceId: owner.workspaceId, signingSecret: 's', verifyToken: undefined },
      {
        source: 'messaging',
        rawBody: raw,
        headers: { 'x-hub-signature-256': signProviderBody('s', raw) },
        query: {},
        requestId: 'req_1',
        receivedAt: new Date(),
        startedAt: process.hrtime.bigint(),
        maxBodyBytes: 1 << 20,
      },
    );
    eventId = out.body.webhookEventId;
    await ingestProviderWebhook(
      deps,
      { workspaceId: owner.workspaceId, signingSecret: undefined, verifyToken: undefined },
      {
        source: 'provider',
        rawBody: raw,
        headers: {},
        query: {},
        requestId: 'req_2',
        receivedAt: new Date(),
        startedAt: process.hrtime.bigint(),
        maxBodyBytes: 1 << 20,
      },
    );
  });
  afterAll(async () => tdb?.drop());

  it('lists, gets and replays', async () => {
    const c = await caller(owner);
    expect((await c.webhooks.list()).webhooks).toHaveLength(2);
    expect((await c.webhooks.list({ source: 'provider' })).webhooks).toHaveLength(1);
    expect((await c.webhooks.get({ id: eventId })).webhook).toMatchObject({
      id: eventId,
      topic: 'unknown',
      signatureValid: true,
      processing: { workflowId: null, runId: null, temporalUiUrl: null },
      outboxJob: { status: 'pending', batchId: null },
    });
    const replay = await c.webhooks.replay({ id: eventId });
    expect(replay).toMatchObject({ accepted: true, replayedFromId: eventId, outboxJob: { jobType: 'process_webhook_event', status: 'pending' } });
    expect((await c.auditLogs.list({ limit: 1 })).auditLogEntries[0]).toMatchObject({ action: 'webhook.replay', targetId: eventId, actorId: owner.memberId });
    expect((await c.webhookRejections.list()).webhookRejections).toEqual([expect.objectContaining({ reason: 'no_secret', source: 'provider' })]);
    expect((await c.webhookDeliveries.list()).webhookDeliveries).toEqual([]);
    const snap = await c.runtime.snapshot();
    expect(snap).toMatchObject({ runtime: { queueDepth: 2, ingress: null }, campaigns: [], journeys: [] });
    expect(snap.webhooks).toHaveLength(3);
  });

  it('webhooks.get: processing names the run that handled the event and links to it in the Temporal UI', async () => {
    await tdb.pool.query(`UPDATE webhook_events SET workflow_id = 'webhook-batch-x', run_id = 'r1' WHERE id = $1`, [eventId]);
    const expected = {
      workflowId: 'webhook-batch-x',
      runId: 'r1',
      temporalUiUrl: 'http://temporal-ui.test:8080/namespaces/default/workflows/webhook-batch-x/r1/history',
    };
    expect((await (await caller(owner)).webhooks.get({ id: eventId })).webhook.processing).toEqual(expected);
    expect((await (await caller(viewer)).webhooks.get({ id: eventId })).webhook.processing).toEqual(expected);
  });

  it('maps errors: bad input, not found, forbidden replay, other workspace', async () => {
    const c = await caller(owner);
    await expect(c.webhooks.list({ limit: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(c.auditLogs.list({ limit: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(c.webhooks.get({ id: 'evt_nope' })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === 'NOT_FOUND');
    await expect(c.webhookDeliveries.replay({ id: 'del_nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect((await caller(viewer)).webhooks.replay({ id: eventId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const o = await caller(other);
    expect((await o.webhooks.list()).webhooks).toEqual([]);
    await expect(o.webhooks.get({ id: eventId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(o.webhooks.replay({ id: eventId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createCaller({ deps, actor: null, requestId: 'r' }).webhooks.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
