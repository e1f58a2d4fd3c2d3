import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { MessageContent } from '@mos/core';
import { createdAt, tstz, workspaceId } from './columns';
import { contacts } from './contacts';
import { workspaces } from './workspaces';

/**
 * The versions of a message the customer edited or deleted, keyed by provider ids so an edit
 * or revoke for a message we have not stored yet is kept and applied when the message
 * arrives (`applyMessageRevisions`). Kinds:
 * - `original`: the content as first received, copied here when the first edit is applied;
 * - `edit`: one per edit event (its own provider id), with the new content;
 * - `revoke`: the customer deleted the message (no content).
 * Unique per (workspace, kind, provider id), so a replayed edit or revoke is a no-op.
 * Content is personal data: erasure, retention and a revoke null it.
 */
export const messageRevisions = pgTable(
  'message_revisions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['original', 'edit', 'revoke'] }).notNull(),
    /** The revision's own provider id (for `original`, the message's id). */
    providerMessageId: text('provider_message_id').notNull(),
    /** The provider id of the message this revises. */
    messageProviderId: text('message_provider_id').notNull(),
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'cascade' }),
    /** Provider time of the version (sent, edited or revoked). */
    occurredAt: tstz('occurred_at').notNull(),
    type: text('type'),
    content: jsonb('content').$type<MessageContent>(),
    /** The searchable words of this version. */
    text: text('text'),
    /** When it was folded into the message row (null: the message is not stored yet). */
    appliedAt: tstz('applied_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('message_revisions_ws_kind_provider_uq').on(t.workspaceId, t.kind, t.providerMessageId),
    index('message_revisions_ws_message_idx').on(t.workspaceId, t.messageProviderId, t.occurredAt),
    index('message_revisions_ws_contact_idx').on(t.workspaceId, t.contactId),
    // Retention's age scan (purgeVersionContentBefore): only versions that still hold content.
    index('message_revisions_ws_occurred_content_idx')
      .on(t.workspaceId, t.occurredAt)
      .where(sql`${t.content} IS NOT NULL OR ${t.text} IS NOT NULL`),
  ],
);
