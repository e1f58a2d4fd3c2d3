import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { OUTBOX_CHANNEL } from '@mos/core';
import type { DbOrTx } from '../client';
import { outboxJobs } from '../schema/index';
import type { OutboxJobRow } from './outbox-relay';

/**
 * The producer side of the transactional outbox (the worker's claim/complete side is
 * outbox-relay.ts). Jobs are written in the caller's transaction, next to the row they
 * process, so a job exists exactly when its event does.
 */

// OutboxJobRow and getOutboxJob live in outbox-relay.ts (the worker's file).

export interface NewOutboxJob {
  id: string;
  jobType: string;
  dedupKey: string;
  payload: Record<string, unknown>;
  /**
   * Jobs with the same key are applied in receipt order (`seq`); null or absent: no ordering
   * constraint. Webhook jobs take core's `webhookOrderingKey` of the parsed body.
   */
  orderingKey?: string | null;
  now: Date;
}

/**
 * Inserts the job unless (workspace, dedup_key) exists, and in the same statement queues a
 * NOTIFY, which Postgres delivers only if the transaction commits. Returns the new id, or
 * null when the key was already taken (a concurrent inserter of the same key is waited for,
 * so a null here means the other job is committed and visible to the next statement).
 */
/**
 * The job INSERT as a CTE body, shared by every producer so the dedup rule lives once:
 * `ON CONFLICT (workspace_id, dedup_key) DO NOTHING RETURNING id`.
 */
export function insertOutboxJobSql(workspaceId: string, job: NewOutboxJob): SQL {
  return sql`INSERT INTO outbox_jobs (id, workspace_id, job_type, status, dedup_key, payload, ordering_key, available_at, created_at, updated_at)
      VALUES (${job.id}, ${workspaceId}, ${job.jobType}, 'pending', ${job.dedupKey}, ${JSON.stringify(job.payload)}::jsonb, ${job.orderingKey ?? null}::text,
        ${job.now}, ${job.now}, ${job.now})
      ON CONFLICT (workspace_id, dedup_key) DO NOTHING
      RETURNING id`;
}

export async function enqueueOutboxJob(db: DbOrTx, workspaceId: string, job: NewOutboxJob): Promise<string | null> {
  const res = await db.execute<{ id: string }>(sql`
    WITH ins AS (${insertOutboxJobSql(workspaceId, job)})
    SELECT id, pg_notify(${OUTBOX_CHANNEL}, id) FROM ins`);
  return res.rows[0]?.id ?? null;
}

export async function findOutboxJobByDedupKey(db: DbOrTx, workspaceId: string, dedupKey: string): Promise<OutboxJobRow | undefined> {
  const [row] = await db
    .select()
    .from(outboxJobs)
    .where(and(eq(outboxJobs.workspaceId, workspaceId), eq(outboxJobs.dedupKey, dedupKey)));
  return row;
}

/** Newest first. */
export async function listOutboxJobs(db: DbOrTx, workspaceId: string, opts: { limit: number; offset?: number }): Promise<OutboxJobRow[]> {
  return db
    .select()
    .from(outboxJobs)
    .where(eq(outboxJobs.workspaceId, workspaceId))
    .orderBy(desc(outboxJobs.createdAt), desc(outboxJobs.id))
    .limit(opts.limit)
    .offset(opts.offset ?? 0);
}

/** Job counts by status for one workspace, e.g. `{pending: 3, completed: 10}`. */
export async function countOutboxJobsByStatus(db: DbOrTx, workspaceId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: outboxJobs.status, n: sql<number>`count(*)::int` })
    .from(outboxJobs)
    .where(eq(outboxJobs.workspaceId, workspaceId))
    .groupBy(outboxJobs.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
