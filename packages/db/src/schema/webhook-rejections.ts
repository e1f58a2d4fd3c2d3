import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** Deliveries refused for their signature; the envelope itself is in webhook_events. */
export const webhookRejections = pgTable(
  'webhook_rejections',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    webhookEventId: text('webhook_event_id').notNull(),
    source: text('source').notNull(),
    /** invalid_signature */
    topic: text('topic').notNull(),
    /** missing | malformed | mismatch | no_secret */
    reason: text('reason').notNull(),
    signatureValid: boolean('signature_valid').notNull().default(false),
    receivedAt: tstz('received_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_rejections_ws_received_idx').on(t.workspaceId, t.receivedAt)],
);
