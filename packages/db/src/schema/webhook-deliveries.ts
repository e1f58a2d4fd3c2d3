import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** A normalized delivery (`del_`): the outcome of processing one outbox job's event. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    webhookEventId: text('webhook_event_id').notNull(),
    jobId: text('job_id').notNull(),
    topic: text('topic').notNull(),
    /** pending | processed | failed */
    status: text('status').notNull(),
    families: jsonb('families').$type<unknown[]>().notNull().default([]),
    error: text('error'),
    processedAt: tstz('processed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_ws_job_uq').on(t.workspaceId, t.jobId),
    index('webhook_deliveries_ws_created_idx').on(t.workspaceId, t.createdAt),
    index('webhook_deliveries_ws_event_idx').on(t.workspaceId, t.webhookEventId),
  ],
);
