import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Client } from '@temporalio/client';
import { lazyTemporalClient } from '@mos/app';
import { workerHeartbeats } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { startWorkerRuntime } from './worker';
import { sharedWorkflowBundle, temporalAddress, testLog, uniqueTaskQueue } from './testing';

/** Start-up edges of `startWorkerRuntime`: Temporal unreachable, and the post-connect hooks. */
let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
});

afterAll(async () => {
  await tdb?.drop();
});

it('keeps heartbeating while Temporal is unreachable, and an abort stops it cleanly', async () => {
  const abort = new AbortController();
  const workerId = `startup-${Date.now()}`;
  const starting = startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log: testLog,
    workerId,
    temporal: { address: '127.0.0.1:1', namespace: 'default', taskQueue: uniqueTaskQueue('down') },
    heartbeatIntervalMs: 200,
    signal: abort.signal,
  });
  await new Promise((r) => setTimeout(r, 1_500));
  const [beating] = await tdb.db.select().from(workerHeartbeats).where(eq(workerHeartbeats.workerId, workerId));
  expect(beating).toMatchObject({ status: 'idle', details: expect.objectContaining({ temporal: 'connecting' }) });
  abort.abort();
  await expect(starting).rejects.toThrow();
  const [stopped] = await tdb.db.select().from(workerHeartbeats).where(eq(workerHeartbeats.workerId, workerId));
  expect(stopped!.status).toBe('stopping');
});

it('runs onTemporalReady hooks with a connected client once polling, and survives a failing hook', async () => {
  const seen: unknown[] = [];
  const runtime = await startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log: testLog,
    temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('hooks') },
    relay: false,
    worker: { workflowBundle: await sharedWorkflowBundle() },
    extraActivities: { ping: async () => 'pong' },
    onTemporalReady: [
      async () => {
        throw new Error('schedule service unavailable');
      },
      async (client) => void seen.push(client),
    ],
  });
  try {
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Client);
    expect(runtime.worker.getState()).toBe('RUNNING');
  } finally {
    await runtime.stop();
  }
});

it("uses the process's Temporal client when given one (AppDeps.temporal), and leaves closing it to its owner", async () => {
  const shared = lazyTemporalClient({ address: temporalAddress(), namespace: 'default' });
  const seen: Client[] = [];
  const runtime = await startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log: testLog,
    temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('shared-client') },
    temporalClient: shared,
    relay: { pollIntervalMs: 200 },
    worker: { workflowBundle: await sharedWorkflowBundle() },
    onTemporalReady: [async (client) => void seen.push(client)],
  });
  try {
    expect(seen).toEqual([await shared.get()]);
    await runtime.relay!.tick();
  } finally {
    await runtime.stop();
  }
  // Still open after the runtime stopped: the process closes it (createAppDeps' close()).
  const client = await shared.get();
  expect(client).toBe(seen[0]);
  await expect(client.workflowService.getSystemInfo({})).resolves.toBeDefined();
  await shared.close();
  await expect(client.workflowService.getSystemInfo({})).rejects.toThrow();
});
