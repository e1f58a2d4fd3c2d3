import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { newId, OUTBOX_CHANNEL, PROCESS_WEBHOOK_EVENT, systemClock } from '@mos/core';
import { getWorkerStatus, outboxJobs, webhookDeliveries, webhookEvents, workerHeartbeats } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { SA_TOPIC, SA_WEBHOOK_EVENT_ID, SA_WORKSPACE_ID, WebhookFailureType, composeEffects, webhookWorkflowId } from '@mos/workflows';
import { createOutboxRelay } from './outbox-relay';
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
    effects: composeEffects({ applyInbound: async (_ws, family) => void inboundApplied.push(family.providerMessageId) }),
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
    expect(job).toMatchObject({ status: 'completed', workflowId: webhookWorkflowId(webhookEventId), lastError: null });
    const delivery = await deliveryFor(jobId);
    expect(delivery).toMatchObject({ webhookEventId, topic: 'messages', status: 'processed', error: null });
    expect(delivery!.id).toMatch(/^del_/);
    expect(delivery!.processedAt).toBeInstanceOf(Date);
    expect(delivery!.families.map((f) => (f as { family: string }).family)).toEqual(['message.inbound', 'conversation.updated']);
    expect((await eventRow(webhookEventId)).normalizationStatus).toBe('processed');
    expect(inboundApplied.filter((id) => id.startsWith('wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5'))).toHaveLength(1);
    await maybeRecordHistory(temporal.client, 'processed-inbound-text', job.workflowId!);
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

  it('starts the workflow with an id naming the event, search attributes and a memo', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('template-approved'), topic: 'unknown', source: 'provider' });
    await finished(jobId);
    const delivery = await deliveryFor(jobId);
    const handle = temporal.client.workflow.getHandle(webhookWorkflowId(webhookEventId));
    // The activity completes the job before the workflow itself returns.
    expect(await handle.result()).toMatchObject({ deliveryId: delivery!.id, status: 'processed', topic: 'unknown', familyCount: 1 });
    const described = await handle.describe();
    expect(described.workflowId).toBe(`webhook-${webhookEventId}`);
    expect(described.type).toBe('processWebhookEvent');
    expect(described.taskQueue).toBe(taskQueue);
    expect(described.typedSearchAttributes.get(SA_WORKSPACE_ID)).toBe(ws);
    expect(described.typedSearchAttributes.get(SA_TOPIC)).toBe('unknown');
    expect(described.typedSearchAttributes.get(SA_WEBHOOK_EVENT_ID)).toBe(webhookEventId);
    expect(await described.memo).toMatchObject({ source: 'provider', deliveryId: delivery!.id, jobId });
    expect(described.status.name).toBe('COMPLETED');
  });

  it('runs a job once when it is dispatched twice (REJECT_DUPLICATE; AlreadyStarted counts as dispatched)', async () => {
    const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('status-read'), topic: 'message_status' });
    const first = await finished(jobId);
    // As if a relay had started the run but died before committing its dispatch mark.
    await tdb.db.update(outboxJobs).set({ status: 'pending', workflowId: null, dispatchedAt: null }).where(eq(outboxJobs.id, jobId));
    const temporalClient = lazyTemporalClient({ address: temporalAddress(), namespace: 'default' });
    const second = createOutboxRelay({ db: tdb.db, databaseUrl: tdb.url, temporal: temporalClient.get, taskQueue, log: testLog, clock: systemClock });
    try {
      expect(await second.tick()).toBeGreaterThanOrEqual(1);
    } finally {
      await temporalClient.close();
    }
    const redispatched = await jobRow(jobId);
    expect(redispatched).toMatchObject({ status: 'dispatched', workflowId: first.workflowId });
    const runs = [];
    for await (const wf of temporal.client.workflow.list({ query: `WorkflowId = '${webhookWorkflowId(webhookEventId)}'` })) runs.push(wf.runId);
    expect(runs).toHaveLength(1);
    expect((await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId))).length).toBe(1);
  });

  it('shares the queue between relays without double starts (SKIP LOCKED)', async () => {
    const stored = await Promise.all(
      Array.from({ length: 20 }, () => storeDelivery(tdb.db, ws, { body: fixtureBody('status-sent'), topic: 'message_status', notify: false })),
    );
    const clients = [
      lazyTemporalClient({ address: temporalAddress(), namespace: 'default' }),
      lazyTemporalClient({ address: temporalAddress(), namespace: 'default' }),
    ];
    const relays = clients.map((c) =>
      createOutboxRelay({ db: tdb.db, databaseUrl: tdb.url, temporal: c.get, taskQueue, log: testLog, clock: systemClock, batchSize: 5 }),
    );
    try {
      await Promise.all(relays.flatMap((r) => [r.tick(), r.tick(), r.tick()]));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    for (const s of stored) await finished(s.jobId);
    const deliveries = await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, ws));
    for (const s of stored) expect(deliveries.filter((d) => d.jobId === s.jobId)).toHaveLength(1);
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
});

describe('permanent failures', () => {
  async function expectFailed(jobId: string, webhookEventId: string, type: WebhookFailureType) {
    const job = await finished(jobId);
    expect(job.status).toBe('failed');
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
