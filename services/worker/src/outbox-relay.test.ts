import { waitFor } from './testing';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createLogger } from '@mos/config';
import { newId, PROCESS_WEBHOOK_EVENT, sha256Hex, systemClock, webhookDedupKey } from '@mos/core';
import { enqueueOutboxJob, getOutboxJob, insertWebhookEvent, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { SA_TOPICS, SA_WEBHOOK_EVENT_IDS, SA_WORKSPACE_IDS, WORKFLOWS_PATH, webhookBatchWorkflowId, webhookWorkflowId } from '@mos/workflows';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay';
import { temporalBatchDispatcher } from './batch-dispatcher';
import { startWorkerRuntime, type WorkerRuntime } from './worker';

/**
 * The relay against a real database and the real Temporal dev server: one task queue per
 * suite. Events and jobs are written the way the ingress writes them (one transaction, the
 * job's NOTIFY delivered on commit). The happy path, NOTIFY latency, a batch dispatched twice
 * and relays sharing the queue are covered in pipeline.test.ts; this suite covers the input
 * shape, outages and the stale-batch sweep. All jobs here share one conversation (one fixture).
 */
const FIXTURE = readFileSync(new URL('../../../packages/core/src/webhooks/fixtures/status-read.json', import.meta.url));
const log = createLogger({ name: 'relay-test', level: 'silent' });
const taskQueue = `test-relay-${randomBytes(4).toString('hex')}`;

let tdb: TestDatabase;
let ws: string;
let connection: Connection;
let client: Client;
let runtime: WorkerRuntime;
const relays: OutboxRelay[] = [];

async function storeDelivery(opts: { providerDeliveryId?: string } = {}): Promise<{ eventId: string; jobId: string }> {
  const now = new Date();
  const eventId = newId('webhookEvent');
  const jobId = newId('job');
  await tdb.db.transaction(async (tx) => {
    await insertWebhookEvent(tx, ws, {
      id: eventId,
      source: 'messaging',
      topic: 'message_status',
      requestId: newId('request'),
      deliveryId: opts.providerDeliveryId ?? null,
      signatureValid: true,
      headers: {},
      query: {},
      bodyHash: sha256Hex(FIXTURE),
      rawBody: FIXTURE,
      bodySize: FIXTURE.length,
      summary: {},
      normalizationStatus: 'pending',
      responseStatus: 200,
      receivedAt: now,
    });
    const dedupKey = webhookDedupKey({ source: 'messaging', deliveryId: opts.providerDeliveryId ?? null, webhookEventId: eventId });
    await enqueueOutboxJob(tx, ws, { id: jobId, jobType: PROCESS_WEBHOOK_EVENT, dedupKey, payload: { webhookEventId: eventId }, now });
  });
  return { eventId, jobId };
}

function relayWith(temporal: () => Promise<Client>, opts: { pollIntervalMs?: number; staleAfterMs?: number } = {}): OutboxRelay {
  const relay = createOutboxRelay({
    db: tdb.db,
    databaseUrl: tdb.url,
    dispatcher: temporalBatchDispatcher({ temporal, taskQueue, db: tdb.db, clock: systemClock, log }),
    log,
    clock: systemClock,
    pollIntervalMs: opts.pollIntervalMs ?? 60_000,
    staleAfterMs: opts.staleAfterMs,
  });
  relays.push(relay);
  return relay;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = (await upsertWorkspace(tdb.db, 'relay')).workspace.id;
  connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
  });
  // A worker without its own relay, so each test drives the relay under test explicitly.
  runtime = await startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log,
    relay: false,
    heartbeatIntervalMs: 60_000,
    temporal: { address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', taskQueue },
    worker: { workflowBundle },
  });
});

afterAll(async () => {
  for (const r of relays) await r.stop();
  await runtime?.stop();
  await connection?.close();
  await tdb?.drop();
});

describe('outbox relay: input shape and Temporal outages', () => {
  it('starts the batch run with ids only as input, and the event links to the run that applied it', async () => {
    const { eventId, jobId } = await storeDelivery({ providerDeliveryId: 'prov-dlv-1' });
    expect(await relayWith(async () => client).tick()).toBe(1);
    const handle = client.workflow.getHandle(webhookBatchWorkflowId(jobId));
    const desc = await handle.describe();
    expect(desc.type).toBe('processWebhookBatch');
    expect(desc.typedSearchAttributes.get(SA_WEBHOOK_EVENT_IDS)).toEqual([eventId]);
    expect(desc.typedSearchAttributes.get(SA_WORKSPACE_IDS)).toEqual([ws]);
    expect(desc.typedSearchAttributes.get(SA_TOPICS)).toEqual(['message_status']);

    // The input carries ids only, never the body.
    const history = await handle.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const input = JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString('utf8'));
    expect(Object.keys(input).sort()).toEqual(['batchId', 'jobs']);
    expect(input.jobs).toHaveLength(1);
    expect(Object.keys(input.jobs[0]).sort()).toEqual(['deliveryId', 'jobId', 'webhookEventId', 'workspaceId']);
    expect(input.jobs[0]).toMatchObject({ workspaceId: ws, webhookEventId: eventId, jobId });

    await handle.result();
    const rows = await tdb.pool.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE job_id = $1`, [jobId]);
    expect(rows.rows[0]?.id).toBe(input.jobs[0].deliveryId);
    const event = await tdb.pool.query(`SELECT workflow_id, run_id FROM webhook_events WHERE id = $1`, [eventId]);
    expect(event.rows[0]).toEqual({ workflow_id: webhookBatchWorkflowId(jobId), run_id: desc.runId });
  });

  it('a start that fails leaves the batch dispatched (its lane held); the sweep starts the same batch once Temporal answers', async () => {
    // No gRPC retry interceptor, so the failing start returns at once instead of after ~20 s of retries.
    const deadConnection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '300 milliseconds', interceptors: [] });
    const dead = new Client({ connection: deadConnection });
    const { eventId, jobId } = await storeDelivery();
    const down = relayWith(async () => dead);
    await expect(down.tick()).rejects.toThrow(/batch starts failed/);
    expect(down.stats.startFailures).toBe(1);
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'dispatched', batchId: jobId, workflowId: webhookBatchWorkflowId(jobId) });
    // A job of the same conversation arriving meanwhile waits behind it.
    const later = await storeDelivery();
    const up = relayWith(async () => client, { staleAfterMs: 0 });
    expect(await up.sweep()).toBe(1);
    await client.workflow.getHandle(webhookBatchWorkflowId(jobId)).result();
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'completed' });
    expect((await tdb.pool.query(`SELECT normalization_status FROM webhook_events WHERE id = $1`, [eventId])).rows[0]).toEqual({
      normalization_status: 'processed',
    });
    expect(await up.tick()).toBe(1);
    await client.workflow.getHandle(webhookBatchWorkflowId(later.jobId)).result();
    await deadConnection.close().catch(() => {});
  });

  it('a batch run terminated by an operator hands its unfinished webhooks to their own runs', async () => {
    const { eventId, jobId } = await storeDelivery();
    // Claimed and started on a queue no worker polls, then terminated before anything applied.
    const parked = createOutboxRelay({
      db: tdb.db,
      databaseUrl: tdb.url,
      dispatcher: temporalBatchDispatcher({ temporal: async () => client, taskQueue: `${taskQueue}-nobody`, db: tdb.db, clock: systemClock, log }),
      log,
      clock: systemClock,
    });
    expect(await parked.tick()).toBe(1);
    relays.push(parked);
    await client.workflow.getHandle(webhookBatchWorkflowId(jobId)).terminate('operator');
    const sweeper = relayWith(async () => client, { staleAfterMs: 0 });
    expect(await sweeper.sweep()).toBe(1);
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ workflowId: webhookWorkflowId(eventId) });
    await client.workflow.getHandle(webhookWorkflowId(eventId)).result();
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'completed' });
  });

  it('the running relay keeps trying while Temporal is unreachable and does not lose jobs', async () => {
    let temporalUp = false;
    const relay = relayWith(
      async () => {
        if (!temporalUp) throw new Error('connect ECONNREFUSED');
        return client;
      },
      { pollIntervalMs: 200 },
    );
    relay.start();
    const { jobId } = await storeDelivery();
    await new Promise((r) => setTimeout(r, 800));
    // Not claimed while Temporal is away: nothing is dispatched to nowhere.
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'pending', attempts: 0, batchId: null });
    temporalUp = true;
    await waitFor(async () => (await getOutboxJob(tdb.db, ws, jobId))?.status === 'completed', { what: 'dispatch after recovery', timeoutMs: 40_000 });
    await relay.stop();
  });
});
