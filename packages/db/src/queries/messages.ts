import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import {
  DELIVERY_STATUS_RANK,
  newId,
  type DeliveryStatus,
  type MessageContent,
  type MessageContext,
  type MessageReferral,
  type ProviderError,
} from '@mos/core';
import type { DbOrTx } from '../client';
import { messages, messageStatuses } from '../schema/index';
import { lockProviderMessage } from './message-lock';
import { applyMessageRevisions } from './message-revisions';

export type MessageRow = typeof messages.$inferSelect;
export type MessageStatusRow = typeof messageStatuses.$inferSelect;

export interface NewMessage {
  conversationId: string;
  contactId: string;
  direction: 'inbound' | 'outbound';
  providerMessageId: string;
  type: string;
  body?: string | null;
  mediaId?: string | null;
  mediaMimeType?: string | null;
  caption?: string | null;
  contextMessageId?: string | null;
  payload?: Record<string, unknown> | null;
  content?: MessageContent | null;
  context?: MessageContext | null;
  referral?: MessageReferral | null;
  errors?: ProviderError[] | null;
  sentAt: Date;
}

/** Whether statuses, edits or a revoke arrived before the message: one query over two indexes. */
async function waitingFor(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<{ revisions: boolean; statuses: boolean }> {
  const res = await db.execute<{ revisions: boolean; statuses: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM message_revisions WHERE workspace_id = ${workspaceId} AND message_provider_id = ${providerMessageId}) AS revisions,
           EXISTS (SELECT 1 FROM message_statuses WHERE workspace_id = ${workspaceId} AND provider_message_id = ${providerMessageId}) AS statuses`);
  return res.rows[0]!;
}

/**
 * Stores a message once per provider message id. A replay or retry finds the existing row
 * and changes nothing (content may since have been erased, purged or revoked; it must not
 * come back). Statuses, edits and a revoke that arrived before the message join it here,
 * under `lockProviderMessage` so one recorded concurrently cannot slip between.
 */
export async function insertMessage(db: DbOrTx, workspaceId: string, input: NewMessage): Promise<{ message: MessageRow; created: boolean }> {
  await lockProviderMessage(db, workspaceId, input.providerMessageId);
  const [inserted] = await db
    .insert(messages)
    .values({ id: newId('message'), workspaceId, ...input })
    .onConflictDoNothing({ target: [messages.workspaceId, messages.providerMessageId] })
    .returning();
  if (inserted) {
    const waiting = await waitingFor(db, workspaceId, input.providerMessageId);
    let message = inserted;
    if (waiting.revisions) message = (await applyMessageRevisions(db, workspaceId, input.providerMessageId, message)) ?? message;
    if (waiting.statuses) message = (await reconcileMessageStatus(db, workspaceId, input.providerMessageId)) ?? message;
    return { message, created: true };
  }
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.providerMessageId, input.providerMessageId)));
  return { message: row!, created: false };
}

export interface NewStatus {
  providerMessageId: string;
  status: DeliveryStatus;
  occurredAt: Date;
  contactId?: string | null;
  errorCode?: number | null;
  errorTitle?: string | null;
  errorDetails?: string | null;
  providerConversationId?: string | null;
  pricingCategory?: string | null;
  pricingBillable?: boolean | null;
  pricingModel?: string | null;
  pricingType?: string | null;
  callbackData?: string | null;
}

/**
 * Appends one status to the delivery history (a duplicate is a no-op) and folds the history
 * into the message's current status when the message is known (under `lockProviderMessage`,
 * so a message being stored concurrently is joined by one side or the other). Returns whether
 * a history row was added and the message, if any.
 */
export async function recordMessageStatus(db: DbOrTx, workspaceId: string, input: NewStatus): Promise<{ inserted: boolean; message: MessageRow | undefined }> {
  await lockProviderMessage(db, workspaceId, input.providerMessageId);
  const rows = await db
    .insert(messageStatuses)
    .values({ id: newId('messageStatus'), workspaceId, ...input })
    .onConflictDoNothing({ target: [messageStatuses.workspaceId, messageStatuses.providerMessageId, messageStatuses.status, messageStatuses.occurredAt] })
    .returning({ id: messageStatuses.id });
  const message = await reconcileMessageStatus(db, workspaceId, input.providerMessageId);
  return { inserted: rows.length > 0, message };
}

const RANKS = Object.entries(DELIVERY_STATUS_RANK);
/** `CASE status WHEN 'sent' THEN 1 ... END` and back, from core's one table of ranks. */
const rankOfStatus = sql.raw(`CASE status ${RANKS.map(([s, r]) => `WHEN '${s}' THEN ${r}`).join(' ')} ELSE 0 END`);
const statusOfRank = (rank: string) => sql.raw(`CASE ${rank} ${RANKS.map(([s, r]) => `WHEN ${r} THEN '${s}'`).join(' ')} ELSE m.status END`);

/**
 * Recomputes a message's current status from its history. Monotonic: the rank only rises
 * (sent 1 < delivered 2 < read 3 < played 4), so a late or duplicate `sent` never overrides
 * `read`, and purged history never lowers it. Failure is kept apart (first failure time and code).
 */
export async function reconcileMessageStatus(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<MessageRow | undefined> {
  const updated = await db.execute<{ id: string }>(sql`
    UPDATE messages m SET
      status_rank = greatest(m.status_rank, h.rank),
      status = ${statusOfRank('greatest(m.status_rank, h.rank)')},
      failed_at = least(m.failed_at, h.failed_at),
      error_code = CASE WHEN h.failed_at IS NOT NULL AND (m.failed_at IS NULL OR h.failed_at <= m.failed_at) THEN h.error_code ELSE m.error_code END,
      updated_at = now()
    FROM (
      SELECT coalesce(max(${rankOfStatus}), 0) AS rank,
             min(occurred_at) FILTER (WHERE status = 'failed') AS failed_at,
             (array_agg(error_code ORDER BY occurred_at) FILTER (WHERE status = 'failed'))[1] AS error_code
        FROM message_statuses
       WHERE workspace_id = ${workspaceId} AND provider_message_id = ${providerMessageId}
    ) h
    WHERE m.workspace_id = ${workspaceId} AND m.provider_message_id = ${providerMessageId}
    RETURNING m.id`);
  if (updated.rows.length === 0) return undefined;
  return getMessageByProviderId(db, workspaceId, providerMessageId);
}

export async function getMessageByProviderId(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.providerMessageId, providerMessageId)));
  return row;
}

/** A contact's messages, newest first. */
export async function listContactMessages(db: DbOrTx, workspaceId: string, contactId: string, opts: { limit?: number } = {}): Promise<MessageRow[]> {
  const q = db
    .select()
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)))
    .orderBy(desc(messages.sentAt), desc(messages.id));
  return opts.limit ? q.limit(opts.limit) : q;
}

/**
 * The provider ids of the messages `listContactMessages` returns with the same limit, as a
 * subquery: what belongs to that page (reactions, versions) is read in parallel with it,
 * in one query each, instead of after it.
 */
export function contactMessageIds(db: DbOrTx, workspaceId: string, contactId: string, limit: number) {
  return db
    .select({ id: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)))
    .orderBy(desc(messages.sentAt), desc(messages.id))
    .limit(limit);
}

/** Delivery history of a message, oldest first. */
export async function listMessageStatuses(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<MessageStatusRow[]> {
  return db
    .select()
    .from(messageStatuses)
    .where(and(eq(messageStatuses.workspaceId, workspaceId), eq(messageStatuses.providerMessageId, providerMessageId)))
    .orderBy(messageStatuses.occurredAt, messageStatuses.status);
}

/** All history rows about a contact: by recipient, or by any of the contact's messages. */
export async function listContactStatuses(db: DbOrTx, workspaceId: string, contactId: string): Promise<MessageStatusRow[]> {
  const own = db
    .select({ id: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)));
  return db
    .select()
    .from(messageStatuses)
    .where(and(eq(messageStatuses.workspaceId, workspaceId), or(eq(messageStatuses.contactId, contactId), inArray(messageStatuses.providerMessageId, own))))
    .orderBy(messageStatuses.occurredAt, messageStatuses.providerMessageId, messageStatuses.status);
}
