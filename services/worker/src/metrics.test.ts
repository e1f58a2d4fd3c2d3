import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { promValue } from '@mos/http/testing';
import { sendMessage, sendMessageInput, type SendMessageInput } from '@mos/app';
import { fixtureBody, sharedWorkflowBundle, storeDelivery, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';
import { seedTemplate, startSendStack, type SendStack } from './testing/send-stack';
import { startWorkerRuntime, type WorkerRuntime } from './worker';
import { createWorkerMetrics, type WorkerMetrics } from './metrics';
import { startWorkerMetricsServer } from './metrics-server';
import type { MetricsServer } from '@mos/http';

/**
 * The worker's /metrics and /health, on its own small server, with a real database, Temporal
 * and (for sends) the provider simulator: the figures move when the work happens.
 */
const env = { HOST: '127.0.0.1', WORKER_METRICS_PORT: 0, MOS_ENV: 'test' as const, MOS_METRICS_TOKEN: undefined };

async function scrape(server: MetricsServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('worker /metrics: the webhook pipeline', () => {
  let tdb: TestDatabase;
  let metrics: WorkerMetrics;
  let server: MetricsServer;
  let runtime: WorkerRuntime | null = null;
  let bundle: { code: string };

  beforeAll(async () => {
    // Bundling takes seconds, more on a busy machine: here rather than in the test's own time.
    bundle = await sharedWorkflowBundle();
    tdb = await createTestDatabase();
    metrics = createWorkerMetrics({ db: tdb.db, log: testLog });
    server = (await startWorkerMetricsServer({ env, log: testLog, metrics, state: () => runtime?.worker.getState() ?? 'connecting' }))!;
  }, 120_000);
  afterAll(async () => {
    await runtime?.stop();
    await server?.close();
    await tdb?.drop();
  });

  it('queue depth shows pending jobs; a run through the runtime moves batch sizes, outcomes, processing latency and statuses', async () => {
    const ws = (await upsertWorkspace(tdb.db, 'metrics')).workspace.id;
    // Received 5 s ago, before any worker runs: they wait as pending.
    const receivedAt = new Date(Date.now() - 5_000);
    for (const name of ['status-sent', 'status-delivered', 'status-failed-131047'])
      await storeDelivery(tdb.db, ws, { body: fixtureBody(name), topic: 'message_status', receivedAt });

    const waiting = await scrape(server);
    expect(promValue(waiting, 'mos_outbox_jobs', { kind: 'process_webhook_event', status: 'pending' })).toBe(3);
    expect(promValue(waiting, 'mos_outbox_jobs', { kind: 'start_journey_run', status: 'pending' })).toBe(0);
    expect(promValue(waiting, 'mos_outbox_oldest_pending_seconds', { kind: 'process_webhook_event' })).toBeGreaterThanOrEqual(4);
    expect(promValue(waiting, 'mos_webhook_batch_size_count')).toBe(0);
    const connecting = await fetch(`${server.url}/health`);
    expect(connecting.status).toBe(503);
    expect(await connecting.json()).toMatchObject({ ok: false, temporal: 'connecting' });

    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('metrics') },
      relay: { pollIntervalMs: 200 },
      worker: { workflowBundle: bundle },
      metrics,
    });
    const done = await waitFor(
      async () => {
        const text = await scrape(server);
        return promValue(text, 'mos_webhooks_processed_total', { status: 'processed' }) === 3 ? text : null;
      },
      { what: 'three webhooks processed' },
    );
    // The relay claimed all three (one batch, or more if a NOTIFY raced the first claim).
    expect(promValue(done, 'mos_webhook_batch_size_sum')).toBe(3);
    expect(promValue(done, 'mos_webhook_batch_size_count')).toBe(promValue(done, 'mos_webhook_batches_total', { outcome: 'started' }));
    expect(promValue(done, 'mos_webhook_batch_jobs_total', { outcome: 'applied' })).toBe(3);
    // Latency runs from the ingress's receivedAt: each at least 5 s.
    expect(promValue(done, 'mos_webhook_processing_latency_seconds_count')).toBe(3);
    expect(promValue(done, 'mos_webhook_processing_latency_seconds_sum')).toBeGreaterThanOrEqual(15);
    expect(promValue(done, 'mos_webhook_processing_latency_seconds_bucket', { le: '1' })).toBe(0);
    for (const status of ['sent', 'delivered', 'failed']) expect(promValue(done, 'mos_message_statuses_total', { status })).toBe(1);
    expect(promValue(done, 'mos_provider_errors_total', { code: '131047', stage: 'status' })).toBe(1);
    expect(promValue(done, 'mos_outbox_jobs', { kind: 'process_webhook_event', status: 'pending' })).toBe(0);
    expect(promValue(done, 'mos_outbox_oldest_pending_seconds', { kind: 'process_webhook_event' })).toBe(0);

    const up = await fetch(`${server.url}/health`);
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ ok: true, service: 'worker', temporal: 'RUNNING' });
    expect(done).toContain('# TYPE mos_worker_process_cpu_user_seconds_total counter');
  }, 60_000);

  it('a second server on a taken port is logged and skipped: metrics never stop the worker', async () => {
    const port = Number(new URL(server.url).port);
    expect(await startWorkerMetricsServer({ env: { ...env, WORKER_METRICS_PORT: port }, log: testLog, metrics, state: () => 'RUNNING' })).toBeNull();
  });
});

describe('worker /metrics: sends through the governor (provider simulator)', () => {
  let tdb: TestDatabase;
  let stack: SendStack;
  let server: MetricsServer;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const metrics = createWorkerMetrics({ db: tdb.db, log: testLog });
    stack = await startSendStack(tdb.db, tdb.url, { metrics });
    server = (await startWorkerMetricsServer({ env, log: testLog, metrics, state: () => stack.runtime.worker.getState() }))!;
    await seedTemplate(stack, 'order_update', 'Hi {{1}}');
    await seedTemplate(stack, 'not_in_provider', 'Hello {{1}}', { inSimulator: false });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await stack?.close();
    await tdb?.drop();
  });

  it('an accepted send and one refused with 132001 count by outcome, the refusal by its provider code', async () => {
    const send = (template: string, to: string) =>
      sendMessage(
        stack.deps,
        stack.scope,
        sendMessageInput.parse({ to, type: 'template', template: { name: template, language: 'en_US', parameters: { body: ['Ana'] } } }) as SendMessageInput,
      );
    await send('order_update', '+15553990001');
    await send('not_in_provider', '+15553990002');
    const text = await waitFor(
      async () => {
        const t = await scrape(server);
        return promValue(t, 'mos_sends_total', { outcome: 'accepted' }) >= 1 && promValue(t, 'mos_sends_total', { outcome: 'rejected' }) >= 1 ? t : null;
      },
      { what: 'both answers counted', timeoutMs: 30_000 },
    );
    expect(promValue(text, 'mos_sends_total', { outcome: 'accepted' })).toBe(1);
    expect(promValue(text, 'mos_sends_total', { outcome: 'rejected' })).toBe(1);
    expect(promValue(text, 'mos_provider_errors_total', { code: '132001', stage: 'send' })).toBe(1);
    expect(promValue(text, 'mos_provider_errors_total', { stage: 'send' })).toBe(1);
    // The accepted message's status webhooks come back through the API and the pipeline.
    await waitFor(async () => promValue(await scrape(server), 'mos_message_statuses_total', { status: 'sent' }) >= 1, {
      what: 'the sent status processed',
      timeoutMs: 30_000,
    });
  }, 60_000);
});
