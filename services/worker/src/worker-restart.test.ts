import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { outboxJobs, webhookDeliveries } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { composeEffects, webhookWorkflowId } from '@mos/workflows';
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
 * A worker that goes away mid-activity (its effect stuck, as in a hung call or a dying
 * process) loses nothing: a fresh worker on the same queue picks the run up, the effect is
 * applied once, and the delivery row exists exactly once.
 */
const taskQueue = uniqueTaskQueue('restart');
let tdb: TestDatabase;
let ws: string;
let temporal: Awaited<ReturnType<typeof connectTestClient>>;
const runtimes: WorkerRuntime[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = await seedWorkspace(tdb.db);
  temporal = await connectTestClient();
});

afterAll(async () => {
  for (const r of runtimes) await r.stop();
  await temporal?.close();
  await tdb?.drop();
});

function start(effects: Parameters<typeof composeEffects>[0], relay: boolean) {
  return sharedWorkflowBundle().then(async (workflowBundle) => {
    const runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue },
      effects: composeEffects(effects),
      relay: relay ? { pollIntervalMs: 200 } : false,
      heartbeatIntervalMs: 500,
      worker: { workflowBundle, shutdownGraceTime: '500 ms' },
    });
    runtimes.push(runtime);
    return runtime;
  });
}

it('a worker shut down mid-workflow is replaced and the run completes without loss or double effect', async () => {
  const startedOnFirst: string[] = [];
  const appliedOnFirst: string[] = [];
  // Never settles: the first worker's effect is stuck when the worker goes away.
  const stuck = new Promise<void>(() => {});
  const first = await start(
    {
      applyInbound: async (_db, _ws, family) => {
        startedOnFirst.push(family.providerMessageId);
        await stuck;
        appliedOnFirst.push(family.providerMessageId);
      },
    },
    true,
  );

  const { webhookEventId, jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('inbound-image') });
  await waitFor(async () => startedOnFirst.length > 0, { what: 'the first worker to block in its effect' });
  await first.stop();
  runtimes.splice(runtimes.indexOf(first), 1);
  const [pending] = await tdb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId));
  expect(pending).toBeUndefined();

  const appliedOnSecond: string[] = [];
  await start({ applyInbound: async (_db, _ws, family) => void appliedOnSecond.push(family.providerMessageId) }, false);

  const result = await temporal.client.workflow.getHandle(webhookWorkflowId(webhookEventId)).result();
  expect(result).toMatchObject({ status: 'processed', topic: 'messages', familyCount: 2 });
  const deliveries = await tdb.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, ws), eq(webhookDeliveries.jobId, jobId)));
  expect(deliveries).toHaveLength(1);
  expect(deliveries[0]).toMatchObject({ id: result.deliveryId, status: 'processed' });
  const [job] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, jobId));
  expect(job).toMatchObject({ status: 'completed', workflowId: webhookWorkflowId(webhookEventId) });
  expect(appliedOnFirst).toEqual([]);
  expect(appliedOnSecond).toEqual([startedOnFirst[0]]);
  await maybeRecordHistory(temporal.client, 'processed-after-worker-restart', webhookWorkflowId(webhookEventId));
}, 60_000);
