import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { outboxJobs } from '../schema/index';

/**
 * The worker side of the transactional outbox. Claiming is deliberately cross-workspace:
 * one relay serves every tenant, as countPendingJobs does for /ready. Everything after the
 * claim is keyed by (workspace_id, job id).
 */

export interface ClaimedJob {
  jobId: string;
  workspaceId: string;
  jobType: string;
  attempts: number;
  /** From payload.webhookEventId; null when the payload lacks it. */
  webhookEventId: string | null;
  /** From the joined event row; null when the event does not exist (the workflow fails it). */
  topic: string | null;
  source: string | null;
  providerDeliveryId: string | null;
}

interface ClaimRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  job_type: string;
  attempts: number;
  webhook_event_id: string | null;
  topic: string | null;
  source: string | null;
  delivery_id: string | null;
}

/**
 * Locks up to `limit` due pending jobs for the caller's transaction. SKIP LOCKED lets several
 * relays share the table; the locks hold until the caller commits its dispatch marks, so a
 * relay that dies mid-dispatch leaves its jobs pending for the next one (which then meets
 * REJECT_DUPLICATE in Temporal and treats it as done). Must run inside a transaction.
 */
export async function claimPendingJobs(tx: DbOrTx, opts: { jobType: string; limit: number; now: Date }): Promise<ClaimedJob[]> {
  const res = await tx.execute<ClaimRow>(sql`
    SELECT j.id, j.workspace_id, j.job_type, j.attempts,
           j.payload->>'webhookEventId' AS webhook_event_id, e.topic, e.source, e.delivery_id
      FROM outbox_jobs j
      LEFT JOIN webhook_events e ON e.workspace_id = j.workspace_id AND e.id = j.payload->>'webhookEventId'
     WHERE j.status = 'pending' AND j.job_type = ${opts.jobType} AND j.available_at <= ${opts.now}
     ORDER BY j.available_at, j.id
     LIMIT ${opts.limit}
       FOR UPDATE OF j SKIP LOCKED`);
  return res.rows.map((r) => ({
    jobId: r.id,
    workspaceId: r.workspace_id,
    jobType: r.job_type,
    attempts: r.attempts,
    webhookEventId: r.webhook_event_id,
    topic: r.topic,
    source: r.source,
    providerDeliveryId: r.delivery_id,
  }));
}

/** pending -> dispatched, recording the workflow that now owns the job. */
export async function markJobDispatched(tx: DbOrTx, workspaceId: string, jobId: string, input: { workflowId: string; now: Date }): Promise<boolean> {
  const rows = await tx
    .update(outboxJobs)
    .set({
      status: 'dispatched',
      workflowId: input.workflowId,
      dispatchedAt: input.now,
      updatedAt: input.now,
      attempts: sql`${outboxJobs.attempts} + 1`,
      lastError: null,
    })
    .where(and(eq(outboxJobs.workspaceId, workspaceId), eq(outboxJobs.id, jobId), eq(outboxJobs.status, 'pending')))
    .returning({ id: outboxJobs.id });
  return rows.length > 0;
}

/** A failed dispatch attempt: the job stays pending and becomes due again at `availableAt`. */
export async function deferJob(tx: DbOrTx, workspaceId: string, jobId: string, input: { error: string; availableAt: Date; now: Date }): Promise<boolean> {
  const rows = await tx
    .update(outboxJobs)
    .set({
      attempts: sql`${outboxJobs.attempts} + 1`,
      lastError: input.error.slice(0, 500),
      availableAt: input.availableAt,
      updatedAt: input.now,
    })
    .where(and(eq(outboxJobs.workspaceId, workspaceId), eq(outboxJobs.id, jobId), eq(outboxJobs.status, 'pending')))
    .returning({ id: outboxJobs.id });
  return rows.length > 0;
}

/**
 * Final state, written by the workflow's activities. A completed job is never moved back to
 * failed (a late failure record after a successful retry must not win).
 */
export async function completeJob(
  db: DbOrTx,
  workspaceId: string,
  jobId: string,
  input: { status: 'completed' | 'failed'; error?: string | null; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(outboxJobs)
    .set({ status: input.status, lastError: input.error ? input.error.slice(0, 500) : null, completedAt: input.now, updatedAt: input.now })
    .where(
      and(
        eq(outboxJobs.workspaceId, workspaceId),
        eq(outboxJobs.id, jobId),
        inArray(outboxJobs.status, input.status === 'completed' ? ['pending', 'dispatched', 'retrying', 'failed'] : ['pending', 'dispatched', 'retrying']),
      ),
    )
    .returning({ id: outboxJobs.id });
  return rows.length > 0;
}

export type OutboxJobRow = typeof outboxJobs.$inferSelect;

export async function getOutboxJob(db: DbOrTx, workspaceId: string, jobId: string): Promise<OutboxJobRow | undefined> {
  const [row] = await db
    .select()
    .from(outboxJobs)
    .where(and(eq(outboxJobs.workspaceId, workspaceId), eq(outboxJobs.id, jobId)));
  return row;
}
