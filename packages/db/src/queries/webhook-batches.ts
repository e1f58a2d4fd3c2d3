import { sql } from 'drizzle-orm';
import { OUTBOX_CHANNEL } from '@mos/core';
import type { DbOrTx } from '../client';

/**
 * The relay's side of batched webhook processing. Jobs are claimed into batches in ONE
 * transaction that writes the batch id on every claimed row; the batch's workflow is started
 * after the commit, under an id derived from the batch id, so a batch whose start was lost (a
 * relay crash, Temporal away) is found again by `findStaleBatches` and started with the same
 * id and the same jobs.
 *
 * Ordering: a job's lane is a hash of its ordering key (one conversation, one template, one
 * account). A lane with a job still `dispatched` is busy and gets no new batch, so the
 * webhooks of one conversation are applied in `seq` (receipt) order within a batch and across
 * batches. Lanes also bound how many batches are in flight: under load the backlog grows
 * batches instead of fanning out into more runs.
 */

export interface ClaimedBatchJob {
  jobId: string;
  workspaceId: string;
  /** From payload.webhookEventId; '' when the payload lacks it (the run then fails it visibly). */
  webhookEventId: string;
  /** From the joined event row; null when the event does not exist. */
  topic: string | null;
}

export interface ClaimedBatch {
  batchId: string;
  /** In `seq` order. */
  jobs: ClaimedBatchJob[];
}

interface JobRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  webhook_event_id: string | null;
  topic: string | null;
  batch_id?: string;
}

const laneOf = (lanes: number) => sql`mod(abs(hashtext(coalesce(j.ordering_key, j.id))::bigint), ${lanes}::bigint)::int`;

// One claimer at a time across relays: two relays claiming the same free lane at once would
// put one conversation into two batches in flight. The claim takes milliseconds.
const CLAIM_LOCK = sql`pg_try_advisory_xact_lock(hashtext('mos-outbox-claim'))`;

/** The NOTIFY payload that says a lane may be free (a batch call committed, jobs handed off). */
export const LANE_FREED = 'lane-freed';

export interface ClaimResult {
  batches: (ClaimedBatch & { lane: number })[];
  /** Lanes busy after this claim (held by batches in flight, this claim's included). */
  lanesBusy: number;
}

/**
 * Claims up to `maxBatch` pending jobs for each free lane and marks them dispatched with their
 * batch id (the first job's id) and the batch's workflow id, in the caller's transaction.
 * Claims nothing when another relay is claiming. Jobs dispatched before batching (no batch
 * id) do not hold a lane: their own runs finish them.
 */
export async function claimWebhookBatches(
  tx: DbOrTx,
  opts: { jobType: string; lanes: number; maxBatch: number; now: Date; workflowIdOf: (batchId: string) => string },
): Promise<ClaimResult> {
  // A statement of its own, so the claim below reads a snapshot taken after the lock is held.
  const lock = await tx.execute<{ ok: boolean }>(sql`SELECT ${CLAIM_LOCK} AS ok`);
  if (!lock.rows[0]?.ok) return { batches: [], lanesBusy: 0 };
  // Every lane's pending jobs form a prefix of the global seq order, so taking the first
  // rows overall and then the first `maxBatch` of each lane never skips an older job.
  const res = await tx.execute<JobRow & { busy_lanes: number; lane: number }>(sql`
    WITH busy AS (
      SELECT DISTINCT ${laneOf(opts.lanes)} AS lane FROM outbox_jobs j
       WHERE j.status = 'dispatched' AND j.job_type = ${opts.jobType} AND j.batch_id IS NOT NULL
    ), candidates AS (
      SELECT j.id, j.workspace_id, j.payload->>'webhookEventId' AS webhook_event_id, ${laneOf(opts.lanes)} AS lane, j.seq
        FROM outbox_jobs j
       WHERE j.status = 'pending' AND j.job_type = ${opts.jobType} AND j.available_at <= ${opts.now}
         AND ${laneOf(opts.lanes)} NOT IN (SELECT lane FROM busy)
       ORDER BY j.seq
       LIMIT ${opts.maxBatch * opts.lanes}
         FOR UPDATE OF j SKIP LOCKED
    )
    SELECT (SELECT count(*)::int FROM busy) AS busy_lanes, c.id, c.workspace_id, c.webhook_event_id, c.lane, e.topic
      FROM (SELECT 1) AS one
      LEFT JOIN candidates c ON true
      LEFT JOIN webhook_events e ON e.workspace_id = c.workspace_id AND e.id = c.webhook_event_id
     ORDER BY c.seq`);
  const busyBefore = res.rows[0]?.busy_lanes ?? 0;
  const byLane = new Map<number, JobRow[]>();
  for (const row of res.rows) {
    if ((row.id as string | null) === null) continue; // no candidate: the one row carries busy_lanes only
    const lane = byLane.get(row.lane) ?? [];
    if (lane.length < opts.maxBatch) lane.push(row);
    byLane.set(row.lane, lane);
  }
  const batches = [...byLane].map(([lane, rows]) => ({ batchId: rows[0]!.id, lane, jobs: rows.map(toJob) }));
  if (batches.length > 0) {
    const marks = sql.join(
      batches.flatMap((b) => b.jobs.map((j) => sql`(${j.jobId}::text, ${b.batchId}::text, ${opts.workflowIdOf(b.batchId)}::text)`)),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE outbox_jobs j
         SET status = 'dispatched', batch_id = m.batch_id, workflow_id = m.workflow_id,
             dispatched_at = ${opts.now}, updated_at = ${opts.now}, attempts = j.attempts + 1, last_error = NULL
        FROM (VALUES ${marks}) AS m(id, batch_id, workflow_id)
       WHERE j.id = m.id AND j.status = 'pending'`);
  }
  return { batches, lanesBusy: busyBefore + batches.length };
}

function toJob(r: JobRow): ClaimedBatchJob {
  return {
    jobId: r.id,
    workspaceId: r.workspace_id,
    webhookEventId: r.webhook_event_id ?? '',
    topic: r.topic,
  };
}

/**
 * Batches with jobs still dispatched since before `olderThan`: a start that never happened
 * or a run that ended without finishing its jobs (terminated by an operator). Oldest first.
 */
export async function findStaleBatches(db: DbOrTx, opts: { jobType: string; olderThan: Date; limit: number }): Promise<ClaimedBatch[]> {
  const res = await db.execute<JobRow>(sql`
    WITH stale AS (
      SELECT batch_id FROM outbox_jobs
       WHERE status = 'dispatched' AND job_type = ${opts.jobType} AND batch_id IS NOT NULL
       GROUP BY batch_id HAVING min(dispatched_at) < ${opts.olderThan}
       ORDER BY min(seq) LIMIT ${opts.limit}
    )
    SELECT j.id, j.workspace_id, j.payload->>'webhookEventId' AS webhook_event_id, e.topic, j.batch_id
      FROM outbox_jobs j
      JOIN stale s ON s.batch_id = j.batch_id
      LEFT JOIN webhook_events e ON e.workspace_id = j.workspace_id AND e.id = j.payload->>'webhookEventId'
     WHERE j.status = 'dispatched'
     ORDER BY j.seq`);
  const batches = new Map<string, ClaimedBatch>();
  for (const row of res.rows) {
    const batchId = row.batch_id!;
    const batch = batches.get(batchId) ?? { batchId, jobs: [] };
    batch.jobs.push(toJob(row));
    batches.set(batchId, batch);
  }
  return [...batches.values()];
}

/**
 * dispatched -> retrying: the jobs leave their batch for their own runs, which finish them.
 * The event rows point at those runs from now on, and the lane is free again (NOTIFY wakes
 * the relay). Returns the jobs that were still dispatched.
 */
export async function handOffWebhookJobs(
  db: DbOrTx,
  jobs: { workspaceId: string; jobId: string; webhookEventId: string; workflowId: string; error: string }[],
  now: Date,
): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows = sql.join(
    jobs.map((j) => sql`(${j.workspaceId}::text, ${j.jobId}::text, ${j.webhookEventId}::text, ${j.workflowId}::text, ${j.error.slice(0, 500)}::text)`),
    sql`, `,
  );
  const res = await db.execute<{ id: string }>(sql`
    WITH h(workspace_id, job_id, event_id, workflow_id, error) AS (VALUES ${rows}),
    moved AS (
      UPDATE outbox_jobs j SET status = 'retrying', workflow_id = h.workflow_id, last_error = h.error, updated_at = ${now}
        FROM h WHERE j.workspace_id = h.workspace_id AND j.id = h.job_id AND j.status = 'dispatched'
      RETURNING j.id, j.workspace_id, h.event_id, h.workflow_id
    ),
    events AS (
      UPDATE webhook_events e SET workflow_id = m.workflow_id, run_id = NULL
        FROM moved m WHERE e.workspace_id = m.workspace_id AND e.id = m.event_id
    )
    SELECT id, pg_notify(${OUTBOX_CHANNEL}, ${LANE_FREED}) FROM moved`);
  return res.rows.map((r) => r.id);
}

/** Batch runs carrying this workspace's webhooks now (a batch may carry other workspaces' too). */
export async function countBatchesInFlight(db: DbOrTx, workspaceId: string, jobType: string): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(DISTINCT batch_id)::int AS n FROM outbox_jobs
     WHERE workspace_id = ${workspaceId} AND job_type = ${jobType} AND status = 'dispatched'`);
  return res.rows[0]?.n ?? 0;
}

/**
 * Bounds every statement of the caller's transaction, so one webhook stuck on a lock or a
 * slow statement fails alone (its savepoint rolls back) instead of holding its whole batch.
 */
export async function boundStatementTime(tx: DbOrTx, opts: { statementMs: number; lockMs: number }): Promise<void> {
  // set_config(..., true) is SET LOCAL as one parameterised statement (one round trip).
  await tx.execute(
    sql`SELECT set_config('statement_timeout', ${String(Math.floor(opts.statementMs))}, true), set_config('lock_timeout', ${String(Math.floor(opts.lockMs))}, true)`,
  );
}

/** Wakes the relays (delivered at the caller's commit). */
export async function notifyOutbox(db: DbOrTx, payload: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${OUTBOX_CHANNEL}, ${payload})`);
}
