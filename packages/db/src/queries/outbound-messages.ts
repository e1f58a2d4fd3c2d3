import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { newId, statusMove, type OutboundContent, type OutboundStatus, type ProviderReportedStatus, type SendError } from '@mos/core';
import type { DbOrTx } from '../client';
import { outboundMessages } from '../schema/index';

export type OutboundMessageRow = typeof outboundMessages.$inferSelect;

export interface NewOutboundMessage {
  contactId: string;
  phoneNumberId: string;
  toPhone: string;
  content: OutboundContent;
  broadcastId?: string | null;
  idempotencyKey?: string | null;
  requestHash?: string | null;
  notBefore?: Date;
  /** Terminal from the start (a broadcast's skipped contact). */
  skipped?: SendError;
}

/**
 * Inserts a queued message, or finds the one already stored under the same idempotency key
 * (`created: false`). Concurrent inserts with one key wait on the unique index, so exactly one
 * row ever exists and every caller gets it.
 */
export async function insertOutboundMessage(
  db: DbOrTx,
  workspaceId: string,
  m: NewOutboundMessage,
  now: Date,
): Promise<{ row: OutboundMessageRow; created: boolean }> {
  const at = now.toISOString();
  const [row] = await db
    .insert(outboundMessages)
    .values({
      id: newId('message', now.getTime()),
      workspaceId,
      contactId: m.contactId,
      broadcastId: m.broadcastId ?? null,
      phoneNumberId: m.phoneNumberId,
      toPhone: m.toPhone,
      type: m.content.kind,
      content: m.content,
      idempotencyKey: m.idempotencyKey ?? null,
      requestHash: m.requestHash ?? null,
      status: m.skipped ? 'skipped' : 'queued',
      statusHistory: m.skipped
        ? [
            { status: 'queued', at },
            { status: 'skipped', at },
          ]
        : [{ status: 'queued', at }],
      error: m.skipped ?? null,
      notBefore: m.notBefore ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [outboundMessages.workspaceId, outboundMessages.idempotencyKey] })
    .returning();
  if (row) return { row, created: true };
  const existing = await findOutboundByIdempotencyKey(db, workspaceId, m.idempotencyKey ?? '');
  if (!existing) throw new Error('idempotency conflict without a stored row');
  return { row: existing, created: false };
}

export async function findOutboundByIdempotencyKey(db: DbOrTx, workspaceId: string, key: string): Promise<OutboundMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(outboundMessages)
    .where(and(eq(outboundMessages.workspaceId, workspaceId), eq(outboundMessages.idempotencyKey, key)));
  return row;
}

export async function getOutboundMessage(db: DbOrTx, workspaceId: string, id: string): Promise<OutboundMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(outboundMessages)
    .where(and(eq(outboundMessages.workspaceId, workspaceId), eq(outboundMessages.id, id)));
  return row;
}

export interface OutboundListFilter {
  status?: OutboundStatus;
  broadcastId?: string;
  contactId?: string;
  /** Keyset: ids older than this one (newest first). */
  cursor?: string;
  limit: number;
}

/** Newest first, keyset on the time-ordered id. */
export async function listOutboundMessages(db: DbOrTx, workspaceId: string, f: OutboundListFilter): Promise<OutboundMessageRow[]> {
  const m = outboundMessages;
  const where: SQL[] = [eq(m.workspaceId, workspaceId)];
  if (f.status) where.push(f.status === 'queued' ? inArray(m.status, ['queued', 'sending']) : eq(m.status, f.status));
  if (f.broadcastId) where.push(eq(m.broadcastId, f.broadcastId));
  if (f.contactId) where.push(eq(m.contactId, f.contactId));
  if (f.cursor) where.push(lt(m.id, f.cursor));
  return db
    .select()
    .from(m)
    .where(and(...where))
    .orderBy(desc(m.id))
    .limit(f.limit);
}

export interface ReportedStatus {
  providerMessageId: string;
  /** `biz_opaque_callback_data`: our message id, which finds a send whose answer was lost. */
  callbackData: string | null;
  status: ProviderReportedStatus;
  at: Date;
  error?: SendError;
}

/**
 * A provider status moves our message forward (core `statusMove`), appending to its history
 * in the same statement's row lock. A message found by callback data learns its provider id
 * here (the send's answer never reached us). Returns the message when it moved.
 */
export async function applyOutboundStatus(db: DbOrTx, workspaceId: string, s: ReportedStatus): Promise<OutboundMessageRow | null> {
  const m = outboundMessages;
  const byCallback = s.callbackData?.startsWith('msg_') ? and(eq(m.id, s.callbackData), sql`${m.providerMessageId} IS NULL`) : undefined;
  const match = byCallback ? or(eq(m.providerMessageId, s.providerMessageId), byCallback) : eq(m.providerMessageId, s.providerMessageId);
  const [row] = await db
    .select()
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), match))
    .limit(1)
    .for('update');
  if (!row) return null;
  const learnsId = row.providerMessageId === null;
  // A send held as `sending` whose status arrives: the provider took it, so it is at least sent.
  const current = row.status === 'sending' || row.status === 'queued' ? { status: row.status, statusRank: 0 } : row;
  const move = statusMove(current, s.status, s.at.toISOString(), s.error);
  if (!move && !learnsId) return null;
  const set: Partial<typeof m.$inferInsert> = { updatedAt: new Date() };
  if (learnsId) {
    set.providerMessageId = s.providerMessageId;
    set.claimedAt = null;
    set.sentAt = row.sentAt ?? s.at;
  }
  if (move) {
    set.status = move.status;
    set.statusRank = move.rank;
    if (move.error) set.error = move.error;
    set.statusHistory = sql`${m.statusHistory} || ${JSON.stringify([move.entry])}::jsonb` as unknown as OutboundMessageRow['statusHistory'];
  } else if (row.status === 'sending') {
    // The id arrived with a status that does not move it (e.g. a repeated `sent`): it was sent.
    set.status = 'sent';
    set.statusRank = 1;
    set.statusHistory =
      sql`${m.statusHistory} || ${JSON.stringify([{ status: 'sent', at: s.at.toISOString() }])}::jsonb` as unknown as OutboundMessageRow['statusHistory'];
  }
  const [updated] = await db
    .update(m)
    .set(set)
    .where(and(eq(m.workspaceId, workspaceId), eq(m.id, row.id)))
    .returning();
  return updated ?? null;
}
