import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { messageReactions } from '../schema/index';

export type MessageReactionRow = typeof messageReactions.$inferSelect;

export interface ReactionInput {
  reactedToMessageId: string;
  contactId: string;
  /** The reaction event's own provider id. */
  providerMessageId: string;
  /** Null removes the reaction. */
  emoji: string | null;
  occurredAt: Date;
}

/**
 * Sets the contact's reaction to a message when it is newer than the one stored. "Newer" is
 * a total order so any arrival order ends the same: provider time first; at the same second a
 * removal beats an emoji (showing a reaction the user took back is the worse mistake); then
 * the provider id. A removal keeps the row (emoji null) and its time, so an older reaction
 * replayed later does not bring the emoji back. Returns the row now in effect.
 */
export async function upsertReaction(db: DbOrTx, workspaceId: string, input: ReactionInput): Promise<MessageReactionRow> {
  const r = messageReactions;
  const [written] = await db
    .insert(r)
    .values({ id: newId('messageReaction'), workspaceId, ...input })
    .onConflictDoUpdate({
      target: [r.workspaceId, r.reactedToMessageId, r.contactId],
      set: { emoji: sql`excluded.emoji`, occurredAt: sql`excluded.occurred_at`, providerMessageId: sql`excluded.provider_message_id`, updatedAt: sql`now()` },
      setWhere: sql`(excluded.occurred_at, excluded.emoji IS NULL, excluded.provider_message_id)
        > (${r.occurredAt}, ${r.emoji} IS NULL, ${r.providerMessageId})`,
    })
    .returning();
  if (written) return written;
  const [current] = await db
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.reactedToMessageId, input.reactedToMessageId), eq(r.contactId, input.contactId)));
  return current!;
}

/**
 * Current reactions (removed ones included, emoji null) to the given messages (provider ids,
 * or a subquery selecting them), oldest first.
 */
export async function listMessageReactions(db: DbOrTx, workspaceId: string, providerMessageIds: string[] | SQLWrapper): Promise<MessageReactionRow[]> {
  if (Array.isArray(providerMessageIds) && providerMessageIds.length === 0) return [];
  const r = messageReactions;
  return db
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), inArray(r.reactedToMessageId, providerMessageIds)))
    .orderBy(asc(r.occurredAt), asc(r.id));
}

/** Everything a contact reacted with, oldest first (GDPR export). */
export async function listContactReactions(db: DbOrTx, workspaceId: string, contactId: string): Promise<MessageReactionRow[]> {
  const r = messageReactions;
  return db
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.contactId, contactId)))
    .orderBy(asc(r.occurredAt), asc(r.id));
}
