import { waitFor } from './testing';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createLogger } from '@mos/config';
import { newId, PROCESS_WEBHOOK_EVENT, sha256Hex, systemClock, webhookDedupKey } from '@mos/core';
import { countPendingJobs, enqueueOutboxJob, getOutboxJob, insertWebhookEvent, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { SA_TOPIC, SA_WEBHOOK_EVENT_ID, SA_WORKSPACE_ID, WORKFLOWS_PATH, webhookWorkflowId } from '@mos/workflows';
import { createOutboxRelay, type OutboxRelay } from './outbox-relay';
import { startWorkerRuntime, type WorkerRuntime } from './worker';

/**
 * The relay against a real database and the real Temporal dev server: one task queue per
 * suite. Events and jobs are written the way the ingress writes them (one transaction, the
 * job's NOTIFY delivered on commit). The happy path, NOTIFY latency, REJECT_DUPLICATE and
 * SKIP LOCKED are covered in pipeline.test.ts; this suite covers the input shape and outages.
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

function relayWith(temporal: () => Promise<Client>, pollIntervalMs = 60_000): OutboxRelay {
  const relay = createOutboxRelay({ db: tdb.db, databaseUrl: tdb.url, temporal, taskQueue, log, clock: systemClock, pollIntervalMs });
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
  it('starts the run with ids as input, typed search attributes and a memo staff can find it by', async () => {
    const { eventId, jobId } = await storeDelivery({ providerDeliveryId: 'prov-dlv-1' });
    await relayWith(async () => client).tick();
    const handle = client.workflow.getHandle(webhookWorkflowId(eventId));
    const desc = await handle.describe();
    expect(desc.type).toBe('processWebhookEvent');
    expect(desc.taskQueue).toBe(taskQueue);
    expect(desc.typedSearchAttributes.get(SA_WORKSPACE_ID)).toBe(ws);
    expect(desc.typedSearchAttributes.get(SA_TOPIC)).toBe('message_status');
    expect(desc.typedSearchAttributes.get(SA_WEBHOOK_EVENT_ID)).toBe(eventId);
    expect(desc.memo).toMatchObject({ source: 'messaging', providerDeliveryId: 'prov-dlv-1', jobId, deliveryId: expect.stringMatching(/^del_/) });

    // The input carries ids only, never the body.
    const history = await handle.fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const input = JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString('utf8'));
    expect(Object.keys(input).sort()).toEqual(['deliveryId', 'jobId', 'webhookEventId', 'workspaceId']);
    expect(input).toMatchObject({ workspaceId: ws, webhookEventId: eventId, jobId });

    // The recorded delivery carries the id the memo announced.
    await handle.result();
    const rows = await tdb.pool.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE job_id = $1`, [jobId]);
    expect(rows.rows[0]?.id).toBe(desc.memo?.deliveryId);
  });

  it('with Temporal down the job stays pending with a backoff, and is dispatched once Temporal answers', async () => {
    // No gRPC retry interceptor, so the failing start returns at once instead of after ~20 s of retries.
    const deadConnection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '300 milliseconds', interceptors: [] });
    const dead = new Client({ connection: deadConnection });
    const pendingBefore = await countPendingJobs(tdb.db, ws);
    const { eventId, jobId } = await storeDelivery();
    const down = relayWith(async () => dead);

    // Every start failed: the tick reports it so the loop backs off; the row only got a retry time.
    await expect(down.tick()).rejects.toThrow(/workflow starts failed/);
    const deferred = await getOutboxJob(tdb.db, ws, jobId);
    expect(deferred).toMatchObject({ status: 'pending', attempts: 1, workflowId: null });
    expect(deferred?.lastError).toBeTruthy();
    expect(deferred!.availableAt.getTime() - deferred!.updatedAt.getTime()).toBeGreaterThanOrEqual(250);
    expect(await countPendingJobs(tdb.db, ws)).toBe(pendingBefore + 1);

    // Not due yet: a healthy relay leaves it alone until its retry time.
    const up = relayWith(async () => client);
    expect(await up.tick()).toBe(0);
    await waitFor(async () => Date.now() > deferred!.availableAt.getTime(), { what: 'retry time' });
    expect(await up.tick()).toBe(1);
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'dispatched', attempts: 2, lastError: null });
    await client.workflow.getHandle(webhookWorkflowId(eventId)).result();
    await deadConnection.close().catch(() => {});
  });

  it('the running relay keeps trying while Temporal is unreachable and does not lose jobs', async () => {
    let temporalUp = false;
    const relay = relayWith(async () => {
      if (!temporalUp) throw new Error('connect ECONNREFUSED');
      return client;
    }, 200);
    relay.start();
    const { jobId } = await storeDelivery();
    await new Promise((r) => setTimeout(r, 800));
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'pending', attempts: 0 });
    temporalUp = true;
    await waitFor(async () => (await getOutboxJob(tdb.db, ws, jobId))?.status === 'completed', { what: 'dispatch after recovery', timeoutMs: 40_000 });
    await relay.stop();
  });
});
