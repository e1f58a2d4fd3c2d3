import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { contacts } from './contacts';
import { workspaces } from './workspaces';

/**
 * The thread with one contact (one per contact). It carries the 24-hour customer-service
 * window, opened or extended by each inbound message, and the latest provider
 * (pricing) conversation seen on a status.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    lastMessageAt: tstz('last_message_at'),
    lastInboundAt: tstz('last_inbound_at'),
    /** Start of the current service window (the inbound message that opened it). */
    windowOpenedAt: tstz('window_opened_at'),
    /** The window closes 24 hours after the latest inbound message. */
    windowExpiresAt: tstz('window_expires_at'),
    providerConversationId: text('provider_conversation_id'),
    providerWindowExpiresAt: tstz('provider_window_expires_at'),
    pricingCategory: text('pricing_category'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('conversations_ws_contact_uq').on(t.workspaceId, t.contactId),
    index('conversations_ws_last_message_idx').on(t.workspaceId, t.lastMessageAt),
  ],
);

/**
 * The provider's conversation (pricing) windows, from the `conversation` and `pricing`
 * objects on statuses: one row per provider conversation id, merged across its statuses.
 */
export const conversationWindows = pgTable(
  'conversation_windows',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    providerConversationId: text('provider_conversation_id').notNull(),
    /** utility | marketing | authentication | service | referral_conversion ... */
    originType: text('origin_type'),
    /** Earliest status time seen for this window. */
    openedAt: tstz('opened_at').notNull(),
    /** When the provider closes the window (`expiration_timestamp`). */
    expiresAt: tstz('expires_at'),
    billable: boolean('billable'),
    pricingModel: text('pricing_model'),
    pricingCategory: text('pricing_category'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('conversation_windows_ws_provider_uq').on(t.workspaceId, t.providerConversationId),
    index('conversation_windows_ws_conversation_idx').on(t.workspaceId, t.conversationId),
  ],
);
