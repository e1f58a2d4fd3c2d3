import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { BroadcastSegment, BroadcastStatus, BroadcastTemplate } from '@mos/core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * A template sent to a segment of contacts. Its workflow pages through the segment
 * (`enqueue_cursor` is the last contact id enqueued) and enqueues one outbound message per
 * contact; the send governor paces them. Progress counts come from the messages themselves.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name'),
    template: jsonb('template').$type<BroadcastTemplate>().notNull(),
    segment: jsonb('segment').$type<BroadcastSegment>().notNull(),
    phoneNumberId: text('phone_number_id').notNull(),
    status: text('status').$type<BroadcastStatus>().notNull(),
    scheduledAt: tstz('scheduled_at'),
    enqueueCursor: text('enqueue_cursor'),
    enqueued: integer('enqueued').notNull().default(0),
    enqueueFinishedAt: tstz('enqueue_finished_at'),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
    failureReason: text('failure_reason'),
    workflowId: text('workflow_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('broadcasts_ws_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);
