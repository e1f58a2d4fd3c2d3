import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PROCESS_WEBHOOK_EVENT } from '@mos/core';
import { createTestDatabase, storeTestWebhookJob, type TestDatabase } from '../testing/index';
import { upsertWorkspace } from './workspaces';
import { getOutboxJob } from './outbox-relay';
import { claimWebhookBatches, findStaleBatches, handOffWebhookJobs } from './webhook-batches';

/**
 * Claiming webhook jobs into batches against a real PostgreSQL: one batch per free lane, in
 * receipt order, never a second batch for a lane (a conversation) while one is in flight, and
 * the batch id written on the rows so a lost start can be found again.
 */
let tdb: TestDatabase;
let ws: string;
const LANES = 4;

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = (await upsertWorkspace(tdb.db, `wb-${randomBytes(4).toString('hex')}`)).workspace.id;
});
afterAll(async () => tdb?.drop());
beforeEach(async () => {
  // Each test starts from an empty queue (jobs of earlier tests would hold lanes).
  await tdb.pool.query(`DELETE FROM outbox_jobs`);
});

const claimWithBusy = (opts: { maxBatch?: number; lanes?: number } = {}) =>
  tdb.db.transaction((tx) =>
    claimWebhookBatches(tx, {
      jobType: PROCESS_WEBHOOK_EVENT,
      lanes: opts.lanes ?? LANES,
      maxBatch: opts.maxBatch ?? 50,
      now: new Date(),
      workflowIdOf: (id) => `webhook-batch-${id}`,
    }),
  );
const claim = async (opts: { maxBatch?: number; lanes?: number } = {}) => (await claimWithBusy(opts)).batches;
const store = async (orderingKey: string | null) => (await storeTestWebhookJob(tdb.db, ws, { body: '{}', orderingKey, notify: false })).jobId;

/** The lane PostgreSQL computes for a key (the claim's own expression). */
async function laneOf(key: string, lanes = LANES): Promise<number> {
  const res = await tdb.db.execute<{ lane: number }>(sql`SELECT mod(abs(hashtext(${key})::bigint), ${lanes}::bigint)::int AS lane`);
  return res.rows[0]!.lane;
}
/** Keys on distinct lanes, found by trying: the test must not depend on one hash's values. */
async function keysOnDistinctLanes(n: number): Promise<string[]> {
  const byLane = new Map<number, string>();
  for (let i = 0; byLane.size < n; i++) {
    const key = `conv:106540352242922:1650555${String(i).padStart(4, '0')}`;
    const lane = await laneOf(key);
    if (!byLane.has(lane)) byLane.set(lane, key);
  }
  return [...byLane.values()];
}

describe('claimWebhookBatches', () => {
  it('idle: a single pending webhook is a batch of one, claimed at once', async () => {
    const jobId = await store('conv:a');
    const batches = await claim();
    expect(batches).toEqual([{ batchId: jobId, lane: await laneOf('conv:a'), jobs: [expect.objectContaining({ jobId, workspaceId: ws })] }]);
    expect(await getOutboxJob(tdb.db, ws, jobId)).toMatchObject({ status: 'dispatched', batchId: jobId, workflowId: `webhook-batch-${jobId}`, attempts: 1 });
  });

  it('a conversation with a batch in flight gets no second batch until that one is done; then the next in receipt order', async () => {
    const sent = await store('conv:b');
    expect((await claim()).map((b) => b.batchId)).toEqual([sent]);
    const delivered = await store('conv:b');
    const read = await store('conv:b');
    // The lane is held by `sent`'s batch: `delivered` must not overtake it.
    expect(await claimWithBusy()).toEqual({ batches: [], lanesBusy: 1 });
    await tdb.pool.query(`UPDATE outbox_jobs SET status = 'completed' WHERE id = $1`, [sent]);
    const next = await claim();
    expect(next.map((b) => b.jobs.map((j) => j.jobId))).toEqual([[delivered, read]]);
  });

  it('a job handed off to its own run frees its lane', async () => {
    const failed = await store('conv:c');
    const [batch] = await claim();
    const later = await store('conv:c');
    expect(await claim()).toEqual([]);
    expect(
      await handOffWebhookJobs(
        tdb.db,
        [{ workspaceId: ws, jobId: failed, webhookEventId: batch!.jobs[0]!.webhookEventId, workflowId: 'webhook-x', error: 'InvalidJson: no' }],
        new Date(),
      ),
    ).toEqual([failed]);
    expect(await getOutboxJob(tdb.db, ws, failed)).toMatchObject({ status: 'retrying', workflowId: 'webhook-x', lastError: 'InvalidJson: no' });
    expect((await claim()).map((b) => b.batchId)).toEqual([later]);
  });

  it('under a backlog: one batch per free lane, each capped, each in receipt order; other lanes are not held back', async () => {
    const [k1, k2] = await keysOnDistinctLanes(2);
    const lane1 = Array.from({ length: 7 }, () => k1!);
    const stored: { key: string; jobId: string }[] = [];
    for (const key of [...lane1, k2!, k2!]) stored.push({ key, jobId: await store(key) });
    const batches = await claim({ maxBatch: 5 });
    const byLane = new Map(batches.map((b) => [b.lane, b.jobs.map((j) => j.jobId)]));
    expect(byLane.get(await laneOf(k1!))).toEqual(
      stored
        .filter((s) => s.key === k1)
        .slice(0, 5)
        .map((s) => s.jobId),
    );
    expect(byLane.get(await laneOf(k2!))).toEqual(stored.filter((s) => s.key === k2).map((s) => s.jobId));
    expect(batches).toHaveLength(2);
  });

  it('jobs without a key (unparseable bodies) still batch, each on the lane of its own id', async () => {
    const a = await store(null);
    const batches = await claim();
    expect(batches.flatMap((b) => b.jobs.map((j) => j.jobId))).toEqual([a]);
  });

  it('two claimers at once never put one job into two batches', async () => {
    const ids = [];
    for (let i = 0; i < 40; i++) ids.push(await store(`conv:${i}`));
    const results = await Promise.all(Array.from({ length: 6 }, () => claim({ maxBatch: 3 })));
    const claimed = results.flat().flatMap((b) => b.jobs.map((j) => j.jobId));
    expect(new Set(claimed).size).toBe(claimed.length);
  });

  it('finds a batch whose jobs stayed dispatched (a lost start) with the same id and jobs', async () => {
    const a = await store('conv:d');
    const b = await store('conv:d');
    const [batch] = await claim();
    expect(await findStaleBatches(tdb.db, { jobType: PROCESS_WEBHOOK_EVENT, olderThan: new Date(Date.now() - 60_000), limit: 10 })).toEqual([]);
    const stale = await findStaleBatches(tdb.db, { jobType: PROCESS_WEBHOOK_EVENT, olderThan: new Date(Date.now() + 1_000), limit: 10 });
    expect(stale).toEqual([{ batchId: batch!.batchId, jobs: batch!.jobs }]);
    expect(stale[0]!.jobs.map((j) => j.jobId)).toEqual([a, b]);
  });
});
