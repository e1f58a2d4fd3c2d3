import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { newId, type MessageContent } from '@mos/core';
import type { DbOrTx } from '../client';
import { messageRevisions, messages } from '../schema/index';
import { contentColumns } from './message-content';
import { lockProviderMessage } from './message-lock';

export type MessageRevisionRow = typeof messageRevisions.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export interface NewRevision {
  kind: 'edit' | 'revoke';
  /** The edit's or revoke's own provider id. */
  providerMessageId: string;
  /** The message it changes. */
  messageProviderId: string;
  contactId: string | null;
  occurredAt: Date;
  type?: string | null;
  content?: MessageContent | null;
  text?: string | null;
}

/**
 * Keeps an edit or revoke once per provider id (a replay is a no-op). Returns whether it was
 * new. Takes `lockProviderMessage` on the message it changes first: apply it with
 * `applyMessageRevisions` in the same transaction, and a message stored concurrently either
 * finds this revision or is found by it.
 */
export async function recordRevision(db: DbOrTx, workspaceId: string, input: NewRevision): Promise<boolean> {
  await lockProviderMessage(db, workspaceId, input.messageProviderId);
  const r = messageRevisions;
  const rows = await db
    .insert(r)
    .values({ id: newId('messageRevision'), workspaceId, ...input })
    .onConflictDoNothing({ target: [r.workspaceId, r.kind, r.providerMessageId] })
    .returning({ id: r.id });
  return rows.length > 0;
}

/** The fields that hold what a message says; nulled by a revoke, an erasure or retention. */
export const REMOVED_CONTENT = {
  body: null,
  caption: null,
  mediaId: null,
  payload: null,
  content: null,
  context: null,
  referral: null,
} as const;

const revisionsOf = (workspaceId: string, messageProviderId: string) =>
  and(eq(messageRevisions.workspaceId, workspaceId), eq(messageRevisions.messageProviderId, messageProviderId));

async function markApplied(db: DbOrTx, workspaceId: string, messageProviderId: string, dropContent: boolean): Promise<void> {
  await db
    .update(messageRevisions)
    .set({ appliedAt: sql`coalesce(${messageRevisions.appliedAt}, now())`, ...(dropContent ? { content: null, text: null } : {}) })
    .where(revisionsOf(workspaceId, messageProviderId));
}

/**
 * Folds a message's stored revisions into its row; a no-op when the message is not stored
 * yet (`insertMessage` calls this again when it arrives). Order-independent, recomputed from
 * the whole history each time:
 * - a revoke wins over everything: `revoked_at` is set and the content removed like an
 *   erasure (every stored version too); the row stays;
 * - otherwise the newest edit (by provider time, then id) is the content, so an older edit
 *   arriving late never overwrites a newer one; the content as first received is kept once
 *   as the `original` revision before the first edit replaces it;
 * - content removed by erasure or retention never comes back: the edit's content is dropped.
 * `stored` is the message row when the caller has just inserted it (no need to read it again).
 */
export async function applyMessageRevisions(db: DbOrTx, workspaceId: string, messageProviderId: string, stored?: MessageRow): Promise<MessageRow | undefined> {
  const m = messages;
  const [message] = stored
    ? [stored]
    : await db
        .select()
        .from(m)
        .where(and(eq(m.workspaceId, workspaceId), eq(m.providerMessageId, messageProviderId)))
        .for('update');
  if (!message) return undefined;
  const revisions = await db
    .select()
    .from(messageRevisions)
    .where(revisionsOf(workspaceId, messageProviderId))
    .orderBy(asc(messageRevisions.occurredAt), asc(messageRevisions.providerMessageId));
  const revoke = revisions.find((r) => r.kind === 'revoke');
  const latest = revisions.filter((r) => r.kind === 'edit').at(-1);
  const byId = and(eq(m.workspaceId, workspaceId), eq(m.id, message.id));

  if (revoke) {
    await markApplied(db, workspaceId, messageProviderId, true);
    const [row] = await db
      .update(m)
      .set({
        ...REMOVED_CONTENT,
        revokedAt: sql`least(${m.revokedAt}, ${revoke.occurredAt}::timestamptz)`,
        contentRemovedAt: sql`coalesce(${m.contentRemovedAt}, ${revoke.occurredAt}::timestamptz)`,
        updatedAt: sql`now()`,
      })
      .where(byId)
      .returning();
    return row;
  }
  if (!latest) return message;
  if (message.contentRemovedAt) {
    await markApplied(db, workspaceId, messageProviderId, true);
    return message;
  }
  await db
    .insert(messageRevisions)
    .values({
      id: newId('messageRevision'),
      workspaceId,
      kind: 'original',
      providerMessageId: message.providerMessageId,
      messageProviderId,
      contactId: message.contactId,
      occurredAt: message.sentAt,
      type: message.type,
      content: message.content,
      text: message.body ?? message.caption,
      appliedAt: sql`now()`,
    })
    .onConflictDoNothing({ target: [messageRevisions.workspaceId, messageRevisions.kind, messageRevisions.providerMessageId] });
  await markApplied(db, workspaceId, messageProviderId, false);
  const [row] = await db
    .update(m)
    .set({
      ...contentColumns(latest.content, latest.text),
      content: latest.content,
      type: latest.type ?? message.type,
      editedAt: latest.occurredAt,
      updatedAt: sql`now()`,
    })
    .where(byId)
    .returning();
  return row;
}

/**
 * Every version of the given messages (provider ids, or a subquery selecting them), oldest
 * first: the original (once edited), each edit, a revoke. One query for a whole page.
 */
export async function listMessageRevisions(db: DbOrTx, workspaceId: string, messageProviderIds: string[] | SQLWrapper): Promise<MessageRevisionRow[]> {
  if (Array.isArray(messageProviderIds) && messageProviderIds.length === 0) return [];
  const r = messageRevisions;
  return db
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), inArray(r.messageProviderId, messageProviderIds)))
    .orderBy(asc(r.occurredAt), asc(r.providerMessageId));
}

/** A contact's revisions, oldest first (GDPR export). */
export async function listContactRevisions(db: DbOrTx, workspaceId: string, contactId: string): Promise<MessageRevisionRow[]> {
  return db
    .select()
    .from(messageRevisions)
    .where(and(eq(messageRevisions.workspaceId, workspaceId), eq(messageRevisions.contactId, contactId)))
    .orderBy(asc(messageRevisions.occurredAt), asc(messageRevisions.providerMessageId));
}
