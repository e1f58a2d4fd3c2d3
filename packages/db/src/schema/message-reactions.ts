import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { contacts } from './contacts';
import { workspaces } from './workspaces';

/**
 * A contact's current reaction to a message. Reactions are not messages (no message row, no
 * service window): one row per (workspace, reacted-to provider message id, contact), keyed by
 * the provider id so a reaction to a message we never stored (sent from the business app, or
 * purged) is kept. The newest reaction by provider time wins; a removal keeps the row with
 * `emoji` null, so an older reaction replayed later cannot bring it back. The emoji is
 * personal data: GDPR erasure and retention delete the rows.
 */
export const messageReactions = pgTable(
  'message_reactions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The provider id of the message reacted to (ours or the contact's). */
    reactedToMessageId: text('reacted_to_message_id').notNull(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** The provider id of the reaction event now in effect. */
    providerMessageId: text('provider_message_id').notNull(),
    /** Null: the contact removed their reaction. */
    emoji: text('emoji'),
    occurredAt: tstz('occurred_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('message_reactions_ws_msg_contact_uq').on(t.workspaceId, t.reactedToMessageId, t.contactId),
    index('message_reactions_ws_contact_idx').on(t.workspaceId, t.contactId),
    index('message_reactions_ws_occurred_idx').on(t.workspaceId, t.occurredAt),
  ],
);
