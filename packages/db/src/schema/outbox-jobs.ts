import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
    /** pending -> dispatched -> completed | failed */
    status: text('status').notNull().default('pending'),
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
  ],
);
