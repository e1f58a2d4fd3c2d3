import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * The transactional outbox: written in the same transaction as the event it processes,
 * claimed by the worker's relay (FOR UPDATE SKIP LOCKED) and handed to Temporal.
 * `dedup_key` is unique per workspace: a repeated provider delivery id cannot enqueue twice,
 * and each replay brings its own key.
 */
export const outboxJobs = pgTable(
  'outbox_jobs',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    jobType: text('job_type').notNull(),
    /**
     * pending -> dispatched (claimed into a batch) -> completed | failed, or
     * dispatched -> retrying (handed to the event's own workflow) -> completed | failed.
     */
    status: text('status').notNull().default('pending'),
    /** Receipt order: ids are time-ordered only to the millisecond; this is the insert order. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /**
     * Jobs with the same key are applied in `seq` order (webhooks: the business number and the
     * contact, see core's `webhookOrderingKey`); null means no ordering constraint.
     */
    orderingKey: text('ordering_key'),
    /** The batch that claimed the job (its workflow id is `webhook-batch-<batch id>`). */
    batchId: text('batch_id'),
    dedupKey: text('dedup_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    workflowId: text('workflow_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    availableAt: tstz('available_at').notNull().defaultNow(),
    dispatchedAt: tstz('dispatched_at'),
    completedAt: tstz('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('outbox_jobs_ws_dedup_uq').on(t.workspaceId, t.dedupKey),
    index('outbox_jobs_pending_idx').on(t.status, t.availableAt),
    index('outbox_jobs_ws_created_idx').on(t.workspaceId, t.createdAt),
    // The relay's claim (oldest pending first) and its look at what is in flight.
    index('outbox_jobs_pending_seq_idx')
      .on(t.jobType, t.seq)
      .where(sql`status = 'pending'`),
    index('outbox_jobs_dispatched_idx')
      .on(t.jobType, t.batchId)
      .where(sql`status = 'dispatched'`),
  ],
);
