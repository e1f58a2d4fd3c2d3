import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { OutboundContent, OutboundStatus, OutboundStatusEntry, SendError } from '@mos/core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { broadcasts } from './broadcasts';
import { contacts } from './contacts';
import { workspaces } from './workspaces';

/**
 * A message we send: persisted `queued` before anything reaches the provider, then moved by
 * the send governor (`sending` while a provider call is in flight, then `sent`) and by status
 * webhooks (forward only: `sent < delivered < read`; `failed` and `skipped` are terminal).
 * `status_history` is append-only and gains an entry only when the status moves.
 *
 * Idempotency: `(workspace, idempotency_key)` is unique; `request_hash` is the SHA-256 of the
 * canonical request, so the same key with another body is told apart from a retry.
 * A broadcast uses `brd_…:<contact id>` as the key, so a re-run page enqueues nobody twice.
 */
export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    broadcastId: text('broadcast_id').references(() => broadcasts.id, { onDelete: 'cascade' }),
    /** The business number that sends it (the governor's key). */
    phoneNumberId: text('phone_number_id').notNull(),
    /** Recipient, E.164 with +. */
    toPhone: text('to_phone').notNull(),
    /** text | template | image | document | audio | video */
    type: text('type').notNull(),
    content: jsonb('content').$type<OutboundContent>().notNull(),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    status: text('status').$type<OutboundStatus>().notNull().default('queued'),
    /** 0 queued/sending, 1 sent, 2 delivered, 3 read; failed/skipped keep the rank they reached. */
    statusRank: integer('status_rank').notNull().default(0),
    statusHistory: jsonb('status_history').$type<OutboundStatusEntry[]>().notNull(),
    providerMessageId: text('provider_message_id'),
    error: jsonb('error').$type<SendError>(),
    /** Not sent before this time: pair spacing, provider back-off, a broadcast's schedule. */
    notBefore: tstz('not_before').notNull().defaultNow(),
    /** Provider calls made for it (a retry after 5xx or an unknown outcome adds one). */
    attempts: integer('attempts').notNull().default(0),
    /** When the current provider call started (`sending`); an old one is an unknown outcome. */
    claimedAt: tstz('claimed_at'),
    sentAt: tstz('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('outbound_messages_ws_idem_uq').on(t.workspaceId, t.idempotencyKey),
    uniqueIndex('outbound_messages_ws_provider_id_uq').on(t.workspaceId, t.providerMessageId),
    // The governor's queue: only live rows, in due order.
    index('outbound_messages_queue_idx')
      .on(t.workspaceId, t.phoneNumberId, t.notBefore)
      .where(sql`status IN ('queued', 'sending')`),
    index('outbound_messages_ws_broadcast_idx').on(t.workspaceId, t.broadcastId, t.status),
    index('outbound_messages_ws_contact_idx').on(t.workspaceId, t.contactId, t.createdAt),
    index('outbound_messages_ws_created_idx').on(t.workspaceId, t.createdAt, t.id),
  ],
);
