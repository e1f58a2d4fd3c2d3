import { sql, type SQL } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { MessageContent, MessageContext, MessageReferral, ProviderError } from '@mos/core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { contacts } from './contacts';
import { conversations } from './conversations';
import { workspaces } from './workspaces';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * One message in a conversation, unique per workspace by the provider's message id.
 * `content` keeps everything the provider sent, typed by kind (core `MessageContent`);
 * body, caption and media columns repeat its searchable parts. Content (all of those, plus
 * context, referral and payload) is personal data: GDPR erasure, retention and the
 * customer's own revoke null it and set `content_removed_at`, keeping the row so counts and
 * statuses survive. An edit replaces the content; earlier versions are in `message_revisions`.
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** inbound | outbound */
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    /** text | image | video | audio | document | sticker | interactive | button | ... */
    type: text('type').notNull(),
    body: text('body'),
    mediaId: text('media_id'),
    mediaMimeType: text('media_mime_type'),
    caption: text('caption'),
    /** The provider id of the message this one replies to. */
    contextMessageId: text('context_message_id'),
    /** Structured non-text content (button or list reply ids). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    /** The whole current content, by kind (text, media, location, contacts, interactive, order, ...). */
    content: jsonb('content').$type<MessageContent>(),
    /** Reply-to, forwarded flags, referred product. */
    context: jsonb('context').$type<MessageContext>(),
    /** The click-to-chat ad or post that started the conversation. */
    referral: jsonb('referral').$type<MessageReferral>(),
    /** Message-level provider errors (an `unsupported` message carries why). */
    errors: jsonb('errors').$type<ProviderError[]>(),
    /** When the latest applied edit was made (null: never edited). */
    editedAt: tstz('edited_at'),
    /** When the customer deleted the message; its content is removed then. */
    revokedAt: tstz('revoked_at'),
    /** The provider's timestamp for the message. */
    sentAt: tstz('sent_at').notNull(),
    /** Highest of sent < delivered < read < played seen so far; failure is tracked apart. */
    status: text('status'),
    statusRank: integer('status_rank').notNull().default(0),
    failedAt: tstz('failed_at'),
    errorCode: integer('error_code'),
    contentRemovedAt: tstz('content_removed_at'),
    /** Full-text search over the message text for the assistant. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL => sql`to_tsvector('simple', coalesce(${messages.body}, '') || ' ' || coalesce(${messages.caption}, ''))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('messages_ws_provider_id_uq').on(t.workspaceId, t.providerMessageId),
    index('messages_ws_conversation_idx').on(t.workspaceId, t.conversationId, t.sentAt),
    index('messages_ws_contact_idx').on(t.workspaceId, t.contactId),
    index('messages_ws_sent_idx').on(t.workspaceId, t.sentAt),
    index('messages_search_idx').using('gin', t.searchVector),
  ],
);

/**
 * Delivery history: every status the provider reported, keyed by provider message id so a
 * status for a message we have not stored yet is kept and joins when the message appears.
 * Unique on (workspace, provider message id, status, timestamp): a duplicate or replayed
 * status is a no-op.
 */
export const messageStatuses = pgTable(
  'message_statuses',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    providerMessageId: text('provider_message_id').notNull(),
    /** The recipient, resolved to a contact (the phone number itself is not kept here). */
    contactId: text('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** sent | delivered | read | played | failed */
    status: text('status').notNull(),
    occurredAt: tstz('occurred_at').notNull(),
    errorCode: integer('error_code'),
    errorTitle: text('error_title'),
    errorDetails: text('error_details'),
    providerConversationId: text('provider_conversation_id'),
    pricingCategory: text('pricing_category'),
    pricingBillable: boolean('pricing_billable'),
    /** CBP | PMP ... */
    pricingModel: text('pricing_model'),
    /** regular | free_customer_service | free_entry_point ... */
    pricingType: text('pricing_type'),
    /** `biz_opaque_callback_data` we attached when sending. */
    callbackData: text('callback_data'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('message_statuses_ws_msg_status_ts_uq').on(t.workspaceId, t.providerMessageId, t.status, t.occurredAt),
    index('message_statuses_ws_occurred_idx').on(t.workspaceId, t.occurredAt),
    index('message_statuses_ws_contact_idx').on(t.workspaceId, t.contactId),
  ],
);
