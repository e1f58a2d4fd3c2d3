import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@mos/config';
import { systemClock } from '@mos/core';
import { getOutboxJob, getWorkerStatus, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { composeEffects } from '@mos/workflows';
import { sharedWorkflowBundle, fixtureBody, storeDelivery, waitFor } from './testing';
import { startWorkerRuntime } from './worker';

/** The worker process's liveness as /ready sees it: heartbeat rows read by getWorkerStatus. */
const log = createLogger({ name: 'runtime-test', level: 'silent' });
let tdb: TestDatabase;
let ws: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = (await upsertWorkspace(tdb.db, 'runtime')).workspace.id;
});
afterAll(async () => tdb?.drop());

describe('worker runtime heartbeat', () => {
  it('absent before any worker, idle when running, busy while working, stale after a clean stop', async () => {
    expect(await getWorkerStatus(tdb.db, new Date())).toBe('absent');

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered = false;
    const runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log,
      clock: systemClock,
      heartbeatIntervalMs: 100,
      temporal: { address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', taskQueue: `test-runtime-${randomBytes(4).toString('hex')}` },
      // Holds the activity open so the worker has work in flight.
      effects: composeEffects({
        applyStatus: async () => {
          entered = true;
          await gate;
        },
      }),
      relay: { pollIntervalMs: 200 },
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
    try {
      await waitFor(async () => (await getWorkerStatus(tdb.db, new Date())) === 'idle', { what: 'idle' });
      const row = await tdb.pool.query(`SELECT worker_id, status, details FROM worker_heartbeats`);
      expect(row.rows).toHaveLength(1);
      expect(row.rows[0].worker_id).toBe(runtime.workerId);

      const { jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('status-read'), topic: 'message_status' });
      await waitFor(async () => entered, { what: 'effect entered' });
      await waitFor(async () => (await getWorkerStatus(tdb.db, new Date())) === 'busy', { what: 'busy' });
      release();
      await waitFor(async () => (await getOutboxJob(tdb.db, ws, jobId))?.status === 'completed', { what: 'job completed' });
    } finally {
      release();
      await runtime.stop();
    }
    // A stopped worker says so on its way out; /ready then reports no live worker.
    const after = await tdb.pool.query(`SELECT status FROM worker_heartbeats WHERE worker_id = $1`, [runtime.workerId]);
    expect(after.rows[0].status).toBe('stopping');
    expect(await getWorkerStatus(tdb.db, new Date())).toBe('stale');
  });

  it('a worker that stopped beating goes stale after the heartbeat window', async () => {
    await tdb.pool.query(`DELETE FROM worker_heartbeats`);
    const runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log,
      heartbeatIntervalMs: 100,
      relay: false,
      temporal: { address: process.env.TEMPORAL_ADDRESS!, namespace: 'default', taskQueue: `test-runtime-${randomBytes(4).toString('hex')}` },
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
    await waitFor(async () => (await getWorkerStatus(tdb.db, new Date())) === 'idle', { what: 'idle' });
    await runtime.stop();
    // As if the process had been killed: its last row is a live status, but old.
    await tdb.pool.query(`UPDATE worker_heartbeats SET status = 'idle', last_beat_at = now() - interval '31 seconds'`);
    expect(await getWorkerStatus(tdb.db, new Date())).toBe('stale');
  });
});
