import { isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { workspaces } from '../schema/index';

/**
 * Retention: each function handles at most `limit` rows older than `cutoff` in one
 * workspace and returns how many it handled, so a caller loops batch by batch and every
 * batch commits on its own (a crash resumes where it stopped). SKIP LOCKED keeps a purge
 * from waiting on rows the pipeline is writing.
 */

/** Workspaces with a retention period. Deliberately cross-workspace: the daily sweep's input. */
export async function listRetentionWorkspaces(db: DbOrTx): Promise<{ workspaceId: string; days: number }[]> {
  const rows = await db
    .select({ workspaceId: workspaces.id, days: workspaces.dataRetentionDays })
    .from(workspaces)
    .where(isNotNull(workspaces.dataRetentionDays))
    .orderBy(workspaces.id);
  return rows.map((r) => ({ workspaceId: r.workspaceId, days: r.days! }));
}

const count = (res: { rowCount: number | null }) => res.rowCount ?? 0;

/**
 * Message content (text, caption, media reference, reply payload, typed content, context,
 * referral) of messages sent before `cutoff`, with the stored versions of those messages
 * (edits) and the reactions to them, which say what the message said or how it was taken.
 * Returns the number of messages. Versions and reactions of messages we never stored go by
 * their own age: `purgeVersionContentBefore`, `deleteReactionsBefore`.
 */
export async function purgeMessageContentBefore(db: DbOrTx, workspaceId: string, cutoff: Date, limit: number, now: Date): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    WITH purged AS (
      UPDATE messages SET body = NULL, caption = NULL, media_id = NULL, payload = NULL, content = NULL, context = NULL, referral = NULL,
             content_removed_at = ${now}, updated_at = ${now}
       WHERE id IN (
         SELECT id FROM messages
          WHERE workspace_id = ${workspaceId} AND sent_at < ${cutoff} AND content_removed_at IS NULL
          ORDER BY sent_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING provider_message_id
    ), versions AS (
      UPDATE message_revisions SET content = NULL, text = NULL
       WHERE workspace_id = ${workspaceId} AND (content IS NOT NULL OR text IS NOT NULL)
         AND message_provider_id IN (SELECT provider_message_id FROM purged)
      RETURNING 1
    ), reactions AS (
      DELETE FROM message_reactions
       WHERE workspace_id = ${workspaceId} AND reacted_to_message_id IN (SELECT provider_message_id FROM purged)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM purged`);
  return res.rows[0]?.n ?? 0;
}

/**
 * The content of message versions (edits, originals) from before `cutoff` that still hold
 * some: in practice those of messages we never stored (an edit for a message that never
 * arrived), since a purged message's versions go with it. Uses the partial index on versions
 * with content, so each batch reads only rows still to do.
 */
export async function purgeVersionContentBefore(db: DbOrTx, workspaceId: string, cutoff: Date, limit: number): Promise<number> {
  return count(
    await db.execute(sql`
      UPDATE message_revisions SET content = NULL, text = NULL
       WHERE id IN (
         SELECT id FROM message_revisions
          WHERE workspace_id = ${workspaceId} AND occurred_at < ${cutoff} AND (content IS NOT NULL OR text IS NOT NULL)
          ORDER BY occurred_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`),
  );
}

/**
 * Reactions from before `cutoff`: in practice those to messages we never stored (the common
 * case: a reaction to a message sent from the business app or another system), since the
 * reactions to a purged message go with it.
 */
export async function deleteReactionsBefore(db: DbOrTx, workspaceId: string, cutoff: Date, limit: number): Promise<number> {
  return count(
    await db.execute(sql`
      DELETE FROM message_reactions
       WHERE id IN (
         SELECT id FROM message_reactions
          WHERE workspace_id = ${workspaceId} AND occurred_at < ${cutoff}
          ORDER BY occurred_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`),
  );
}

/** Raw bodies of stored webhook envelopes received before `cutoff` (the row and its metadata stay). */
export async function purgeEnvelopeBodiesBefore(db: DbOrTx, workspaceId: string, cutoff: Date, limit: number, now: Date): Promise<number> {
  return count(
    await db.execute(sql`
      UPDATE webhook_events SET raw_body = NULL, raw_body_redacted_at = ${now}, raw_body_redaction = 'retention'
       WHERE id IN (
         SELECT id FROM webhook_events
          WHERE workspace_id = ${workspaceId} AND received_at < ${cutoff} AND raw_body IS NOT NULL
          ORDER BY received_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`),
  );
}

/**
 * Delivery-history rows older than `cutoff`. A message keeps its folded current status
 * (the rank never goes down), so only the per-status detail goes.
 */
export async function deleteStatusesBefore(db: DbOrTx, workspaceId: string, cutoff: Date, limit: number): Promise<number> {
  return count(
    await db.execute(sql`
      DELETE FROM message_statuses
       WHERE id IN (
         SELECT id FROM message_statuses
          WHERE workspace_id = ${workspaceId} AND occurred_at < ${cutoff}
          ORDER BY occurred_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`),
  );
}
