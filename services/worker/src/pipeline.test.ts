import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { newId, OUTBOX_CHANNEL, PROCESS_WEBHOOK_EVENT, systemClock } from '@mos/core';
import { getWorkerStatus, outboxJobs, webhookDeliveries, webhookEvents, workerHeartbeats } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { findStaleBatches, liveBatchSizes } from '@mos/db';
import {
  SA_TOPICS,
  SA_WEBHOOK_EVENT_IDS,
  SA_WORKSPACE_IDS,
  WebhookFailureType,
  composeEffects,
  webhookBatchWorkflowId,
  webhookWorkflowId,
} from '@mos/workflows';
import { createOutboxRelay } from './outbox-relay';
import { temporalBatchDispatcher } from './batch-dispatcher';
import { lazyTemporalClient } from '@mos/app';
import { startWorkerRuntime, type WorkerRuntime } from './worker';
import {
  connectTestClient,
  fixtureBody,
  maybeRecordHistory,
  seedWorkspace,
  sharedWorkflowBundle,
  storeDelivery,
  temporalAddress,
  testLog,
  uniqueTaskQueue,
  waitFor,
} from './testing';

/**
 * The pipeline end to end against real PostgreSQL and Temporal: relay -> workflow ->
 * activity -> rows. The relay's polling fallback is set to 10 s so anything faster than that
 * is the LISTEN/NOTIFY wake-up at work.
 */
const POLL_MS = 10_000;
const taskQueue = uniqueTaskQueue('pipeline');
let tdb: TestDatabase;
let ws: string;
let runtime: WorkerRuntime;
let temporal: Awaited<ReturnType<typeof connectTestClient>>;
const inboundApplied: string[] = [];

async function deliveryFor(jobId: string) {
  const [row] = await tdb.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, ws), eq(webhookDeliveries.jobId, jobId)));
  return row;
}
async function jobRow(jobId: string) {
  const [row] = await tdb.db
    .select()
    .from(outboxJobs)
    .where(and(eq(outboxJobs.workspaceId, ws), eq(outboxJobs.id, jobId)));
  return row!;
}
async function eventRow(id: string) {
  const [row] = await tdb.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, ws), eq(webhookEvents.id, id)));
  return row!;
}
const finished = (jobId: string) =>
  waitFor(
    async () => {
      const j = await jobRow(jobId);
      return j.status === 'completed' || j.status === 'failed' ? j : null;
    },
    { what: `job ${jobId} to finish` },
  );

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = await seedWorkspace(tdb.db);
  temporal = await connectTestClient();
  runtime = await startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log: testLog,
    temporal: { address: temporalAddress(), namespace: 'default', taskQueue },
    effects: composeEffects({ applyInbound: async (_db, _ws, family) => void inboundApplied.push(family.providerMessageId) }),
    relay: { pollIntervalMs: POLL_MS },
    heartbeatIntervalMs: 500,
    worker: { workflowBundle: await sharedWorkflowBundle() },
  });
  await waitFor(async () => runtime.relay!.stats.listening, { what: 'LISTEN' });
});

afterAll(async () => {
  await runtime?.stop();
  await temporal?.close();
  await tdb?.drop();
});

describe('webhook pipeline', () => {
  it('processes a stored delivery: delivery row, event status, job completed, effect applied once', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('inbound-text') });
    const job = await finished(jobId);
    // Idle: the webhook was not held back for a batch to fill; it ran alone, in a batch of one.
    expect(job).toMatchObject({ status: 'completed', batchId: jobId, workflowId: webhookBatchWorkflowId(jobId), lastError: null });
    expect((await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.batchId, jobId))).map((j) => j.id)).toEqual([jobId]);
    // Dispatched on its NOTIFY, not after a wait for company (the poll is 10 s).
    expect(job.dispatchedAt!.getTime() - job.createdAt.getTime()).toBeLessThan(POLL_MS / 2);
    const delivery = await deliveryFor(jobId);
    expect(delivery).toMatchObject({ webhookEventId, topic: 'messages', status: 'processed', error: null });
    expect(delivery!.id).toMatch(/^del_/);
    expect(delivery!.processedAt).toBeInstanceOf(Date);
    expect(delivery!.families.map((f) => (f as { family: string }).family)).toEqual(['message.inbound', 'conversation.updated']);
    const event = await eventRow(webhookEventId);
    expect(event.normalizationStatus).toBe('processed');
    // The event links to the run that applied it.
    const described = await temporal.client.workflow.getHandle(job.workflowId!).describe();
    expect(event).toMatchObject({ workflowId: job.workflowId, runId: described.runId });
    expect(inboundApplied.filter((id) => id.startsWith('wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5'))).toHaveLength(1);
    await temporal.client.workflow.getHandle(job.workflowId!).result();
    await maybeRecordHistory(temporal.client, 'batch-processed-inbound-text', job.workflowId!);
  });

  it('wakes on NOTIFY: a notified job is dispatched well before the polling interval', async () => {
    const { jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('status-delivered'), topic: 'message_status' });
    const job = await waitFor(
      async () => {
        const j = await jobRow(jobId);
        return j.dispatchedAt ? j : null;
      },
      { timeoutMs: POLL_MS - 1_000, what: 'dispatch' },
    );
    // Under half the polling interval: only the NOTIFY can explain it (a busy CI box gets slack).
    expect(job.dispatchedAt!.getTime() - job.createdAt.getTime()).toBeLessThan(POLL_MS / 2);
    await finished(jobId);
  });

  it('starts a batch run findable by each webhook it carries (WebhookEventIds), its workspaces and topics', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('template-approved'), topic: 'unknown', source: 'provider' });
    const job = await finished(jobId);
    const handle = temporal.client.workflow.getHandle(job.workflowId!);
    expect(await handle.result()).toMatchObject({ batchId: job.batchId, applied: 1, alreadyApplied: 0, handedOff: [] });
    const described = await handle.describe();
    expect(described.type).toBe('processWebhookBatch');
    expect(described.taskQueue).toBe(taskQueue);
    expect(described.typedSearchAttributes.get(SA_WEBHOOK_EVENT_IDS)).toEqual([webhookEventId]);
    expect(described.typedSearchAttributes.get(SA_WORKSPACE_IDS)).toEqual([ws]);
    expect(described.typedSearchAttributes.get(SA_TOPICS)).toEqual(['unknown']);
    expect(described.status.name).toBe('COMPLETED');
    // What an operator types in the Temporal UI finds exactly this run (visibility is eventually consistent).
    const found = await waitFor(
      async () => {
        const runs: string[] = [];
        for await (const wf of temporal.client.workflow.list({ query: `WebhookEventIds = '${webhookEventId}'` })) runs.push(wf.workflowId);
        return runs.length > 0 ? runs : null;
      },
      { what: 'visibility' },
    );
    expect(found).toEqual([job.workflowId]);
  });

  it('runs a batch once when it is dispatched twice (deterministic id, REJECT_DUPLICATE)', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('status-read'), topic: 'message_status' });
    const first = await finished(jobId);
    // As if the stale-batch sweep had found it again: same batch id, same jobs.
    await tdb.db.update(outboxJobs).set({ status: 'dispatched' }).where(eq(outboxJobs.id, jobId));
    const [batch] = (await findStaleBatches(tdb.db, { jobType: PROCESS_WEBHOOK_EVENT, olderThan: new Date(Date.now() + 60_000), limit: 100 })).filter(
      (b) => b.batchId === first.batchId,
    );
    expect(batch?.jobs.map((j) => j.jobId)).toEqual([jobId]);
    const temporalClient = lazyTemporalClient({ address: temporalAddress(), namespace: 'default' });
    const dispatcher = temporalBatchDispatcher({ temporal: temporalClient.get, taskQueue, db: tdb.db, clock: systemClock, log: testLog });
    try {
      await dispatcher.dispatch(batch!);
      await dispatcher.dispatch(batch!);
    } finally {
      await temporalClient.close();
    }
    const runs = [];
    for await (const wf of temporal.client.workflow.list({ query: `WorkflowId = '${webhookBatchWorkflowId(first.batchId!)}'` })) runs.push(wf.runId);
    expect(runs).toHaveLength(1);
    expect((await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId))).length).toBe(1);
    expect((await eventRow(webhookEventId)).normalizationStatus).toBe('processed');
    await tdb.db.update(outboxJobs).set({ status: 'completed' }).where(eq(outboxJobs.id, jobId));
  });

  it('shares the queue between relays: no job claimed into two batches, each applied once', async () => {
    const stored = await Promise.all(
      Array.from({ length: 20 }, () => storeDelivery(tdb.db, ws, { body: fixtureBody('status-sent'), topic: 'message_status', notify: false })),
    );
    const clients = [
      lazyTemporalClient({ address: temporalAddress(), namespace: 'default' }),
      lazyTemporalClient({ address: temporalAddress(), namespace: 'default' }),
    ];
    const relays = clients.map((c) =>
      createOutboxRelay({
        db: tdb.db,
        databaseUrl: tdb.url,
        dispatcher: temporalBatchDispatcher({ temporal: c.get, taskQueue, db: tdb.db, clock: systemClock, log: testLog }),
        log: testLog,
        clock: systemClock,
        batchSize: 5,
      }),
    );
    try {
      await Promise.all(relays.flatMap((r) => [r.tick(), r.tick(), r.tick()]));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    for (const s of stored) await finished(s.jobId);
    const deliveries = await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, ws));
    for (const s of stored) expect(deliveries.filter((d) => d.jobId === s.jobId)).toHaveLength(1);
    const batches = new Set((await Promise.all(stored.map((s) => jobRow(s.jobId)))).map((j) => j.batchId));
    expect(batches.has(null)).toBe(false);
  });
});

describe('worker heartbeat', () => {
  it('beats for /ready while running', async () => {
    const [row] = await tdb.db.select().from(workerHeartbeats).where(eq(workerHeartbeats.workerId, runtime.workerId));
    expect(row).toBeDefined();
    expect(['idle', 'busy']).toContain(row!.status);
    expect(['idle', 'busy']).toContain(await getWorkerStatus(tdb.db, new Date()));
    expect(row!.details).toMatchObject({ taskQueue, temporal: 'RUNNING' });
  });

  it('reports the batch sizes its relay dispatched, as /internal/runtime shows them', async () => {
    // Earlier tests ran single webhooks (idle: batches of one) and the 20-job backlog of two relays.
    const sizes = await waitFor(
      async () => {
        const s = await liveBatchSizes(tdb.db, new Date());
        return (s['1'] ?? 0) > 0 ? s : null;
      },
      { what: 'a heartbeat with batch sizes' },
    );
    // The heartbeat lags the relay by at most one beat.
    expect(sizes['1']).toBeLessThanOrEqual(runtime.relay!.stats.batchSizes['1']);
  });
});

describe('permanent failures', () => {
  async function expectFailed(jobId: string, webhookEventId: string, type: WebhookFailureType) {
    const job = await finished(jobId);
    expect(job.status).toBe('failed');
    // It failed in its batch and was handed to its own run, which failed it for good.
    expect(job.batchId).toBe(jobId);
    expect(job.workflowId).toBe(webhookWorkflowId(webhookEventId));
    expect(job.lastError).toMatch(new RegExp(`^${type}: `));
    const delivery = await deliveryFor(jobId);
    expect(delivery).toMatchObject({ status: 'failed', webhookEventId });
    expect(delivery!.error).toMatch(new RegExp(`^${type}: `));
    const handle = temporal.client.workflow.getHandle(job.workflowId!);
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause).toBeInstanceOf(ApplicationFailure);
    expect(((err as WorkflowFailedError).cause as ApplicationFailure).type).toBe(type);
    expect((await handle.describe()).status.name).toBe('FAILED');
    return job;
  }

  it('an invalid_json event fails without retries: delivery failed, job failed, event failed', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: '{"object": ', topic: 'invalid_json' });
    const job = await expectFailed(jobId, webhookEventId, WebhookFailureType.InvalidJson);
    expect((await eventRow(webhookEventId)).normalizationStatus).toBe('failed');
    await maybeRecordHistory(temporal.client, 'failed-invalid-json', job.workflowId!);
  });

  it('a body that is JSON but not an envelope fails as InvalidPayload', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: '{"object":"page","entry":[]}', topic: 'messages' });
    await expectFailed(jobId, webhookEventId, WebhookFailureType.InvalidPayload);
  });

  it('an envelope the normalizer cannot read (a timestamp past any date) fails once as InvalidPayload, not retried', async () => {
    const body = JSON.parse(fixtureBody('inbound-text').toString());
    body.entry[0].changes[0].value.messages[0].timestamp = '99999999999999999999';
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: JSON.stringify(body), topic: 'messages' });
    const job = await expectFailed(jobId, webhookEventId, WebhookFailureType.InvalidPayload);
    expect((await deliveryFor(jobId))!.error).toMatch(/no change could be read: the value of messages/);
    const history = await temporal.client.workflow.getHandle(job.workflowId!).fetchHistory();
    const attempts = history.events!.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt);
    // Each activity (the processing one and the failure bookkeeping) ran exactly once.
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((a) => a === 1)).toBe(true);
  });

  it('a job whose event row is missing fails as EventNotFound', async () => {
    const jobId = newId('job');
    const webhookEventId = newId('webhookEvent');
    await tdb.db
      .insert(outboxJobs)
      .values({ id: jobId, workspaceId: ws, jobType: PROCESS_WEBHOOK_EVENT, dedupKey: `event:${webhookEventId}`, payload: { webhookEventId } });
    await tdb.pool.query(`SELECT pg_notify($1, $2)`, [OUTBOX_CHANNEL, jobId]);
    await expectFailed(jobId, webhookEventId, WebhookFailureType.EventNotFound);
  });
});
