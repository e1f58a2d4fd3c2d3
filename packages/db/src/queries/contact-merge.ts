import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { contactIdentityChanges, contacts, conversations, conversationWindows, messageRevisions, messages, messageStatuses } from '../schema/index';
import { writeAuditLog } from './audit-logs';
import type { ContactRow } from './contacts';

type ConversationRow = typeof conversations.$inferSelect;

const later = (a: Date | null, b: Date | null): Date | null => (a === null ? b : b === null ? a : a >= b ? a : b);

/**
 * The contact fields after a merge: identifiers and operator fields keep the survivor's
 * value and fall back to the absorbed one's; the profile comes from whoever wrote last; the
 * subscriber decision is the newer one, except that a block (an operator decision) always
 * survives, so merging never lifts it.
 */
function mergedFields(keep: ContactRow, absorb: ContactRow): Partial<ContactRow> {
  const absorbIsNewer = absorb.lastInboundAt !== null && (keep.lastInboundAt === null || absorb.lastInboundAt > keep.lastInboundAt);
  const [fresh, stale] = absorbIsNewer ? [absorb, keep] : [keep, absorb];
  const decidedLater = absorb.subscriberStatusAt !== null && (keep.subscriberStatusAt === null || absorb.subscriberStatusAt > keep.subscriberStatusAt);
  const decision = keep.subscriberStatus === 'blocked' ? keep : absorb.subscriberStatus === 'blocked' ? absorb : decidedLater ? absorb : keep;
  return {
    phoneNumber: keep.phoneNumber ?? absorb.phoneNumber,
    providerUserId: keep.providerUserId ?? absorb.providerUserId,
    username: fresh.username ?? stale.username,
    countryCode: fresh.countryCode ?? stale.countryCode,
    profileName: fresh.profileName ?? stale.profileName,
    name: keep.name ?? absorb.name,
    email: keep.email ?? absorb.email,
    externalReferenceId: keep.externalReferenceId ?? absorb.externalReferenceId,
    locale: keep.locale ?? absorb.locale,
    subscriberStatus: decision.subscriberStatus,
    subscriberStatusAt: decision.subscriberStatusAt,
    subscriberStatusSource: decision.subscriberStatusSource,
    lastInboundAt: later(keep.lastInboundAt, absorb.lastInboundAt),
    identityChangedAt: later(keep.identityChangedAt, absorb.identityChangedAt),
    createdAt: earlier(keep.createdAt, absorb.createdAt)!,
  };
}

const earlier = (a: Date | null, b: Date | null): Date | null => (a === null ? b : b === null ? a : a <= b ? a : b);

/**
 * The union of two service windows: the one closing last, opened at the earlier opening when
 * the two overlap (one window), else at its own opening (a gap means a new window).
 */
function mergedWindow(k: ConversationRow, a: ConversationRow): Pick<ConversationRow, 'windowOpenedAt' | 'windowExpiresAt'> {
  if (a.windowExpiresAt === null) return { windowOpenedAt: k.windowOpenedAt, windowExpiresAt: k.windowExpiresAt };
  if (k.windowExpiresAt === null) return { windowOpenedAt: a.windowOpenedAt, windowExpiresAt: a.windowExpiresAt };
  const [last, other] = k.windowExpiresAt >= a.windowExpiresAt ? [k, a] : [a, k];
  const overlap = last.windowOpenedAt === null || other.windowExpiresAt! >= last.windowOpenedAt;
  return { windowOpenedAt: overlap ? earlier(last.windowOpenedAt, other.windowOpenedAt) : last.windowOpenedAt, windowExpiresAt: last.windowExpiresAt };
}

/**
 * Folds one thread into another: messages and provider windows move, and the survivor keeps
 * the union of both service windows and points at the provider window that closes last.
 */
async function mergeConversations(db: DbOrTx, workspaceId: string, keep: ConversationRow, absorb: ConversationRow): Promise<void> {
  const inWs = (table: typeof messages | typeof conversationWindows, id: string) => and(eq(table.workspaceId, workspaceId), eq(table.conversationId, id));
  await db
    .update(messages)
    .set({ conversationId: keep.id, updatedAt: sql`now()` })
    .where(inWs(messages, absorb.id));
  await db
    .update(conversationWindows)
    .set({ conversationId: keep.id, updatedAt: sql`now()` })
    .where(inWs(conversationWindows, absorb.id));
  const providerFromAbsorbed =
    absorb.providerConversationId !== null &&
    (keep.providerConversationId === null ||
      (absorb.providerWindowExpiresAt !== null && (keep.providerWindowExpiresAt === null || absorb.providerWindowExpiresAt > keep.providerWindowExpiresAt)));
  const provider = providerFromAbsorbed ? absorb : keep;
  await db.delete(conversations).where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, absorb.id)));
  await db
    .update(conversations)
    .set({
      lastMessageAt: later(keep.lastMessageAt, absorb.lastMessageAt),
      lastInboundAt: later(keep.lastInboundAt, absorb.lastInboundAt),
      ...mergedWindow(keep, absorb),
      providerConversationId: provider.providerConversationId,
      providerWindowExpiresAt: provider.providerWindowExpiresAt,
      pricingCategory: provider.pricingCategory,
      createdAt: earlier(keep.createdAt, absorb.createdAt)!,
      updatedAt: sql`now()`,
    })
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, keep.id)));
}

/**
 * The contact's reactions move to the survivor; where both reacted to the same message the
 * newer reaction (same order as `upsertReaction`) stays.
 */
async function mergeReactions(db: DbOrTx, workspaceId: string, keepId: string, absorbId: string): Promise<void> {
  const newer = (x: string, y: string) =>
    sql.raw(`(${x}.occurred_at, ${x}.emoji IS NULL, ${x}.provider_message_id) > (${y}.occurred_at, ${y}.emoji IS NULL, ${y}.provider_message_id)`);
  await db.execute(sql`DELETE FROM message_reactions a USING message_reactions k
    WHERE a.workspace_id = ${workspaceId} AND k.workspace_id = ${workspaceId} AND a.contact_id = ${absorbId} AND k.contact_id = ${keepId}
      AND a.reacted_to_message_id = k.reacted_to_message_id AND NOT ${newer('a', 'k')}`);
  await db.execute(sql`DELETE FROM message_reactions k USING message_reactions a
    WHERE a.workspace_id = ${workspaceId} AND k.workspace_id = ${workspaceId} AND a.contact_id = ${absorbId} AND k.contact_id = ${keepId}
      AND a.reacted_to_message_id = k.reacted_to_message_id`);
  await db.execute(sql`UPDATE message_reactions SET contact_id = ${keepId}, updated_at = now()
    WHERE workspace_id = ${workspaceId} AND contact_id = ${absorbId}`);
}

/**
 * Merges `absorbId` into `keepId` (one person known under two contacts, e.g. a message from
 * their new number arrived before the number-change notice): every row that belongs to the
 * absorbed contact (conversation, messages, delivery history, reactions, revisions, identity
 * changes) moves to the survivor, unique conflicts are settled as described on each step,
 * and the absorbed contact is deleted. Returns the survivor. No history is lost: the
 * absorbed id, which operators or API clients may have kept, is recorded in the audit log
 * (`contact.merged`) in the same transaction.
 */
export async function mergeContacts(db: DbOrTx, workspaceId: string, keepId: string, absorbId: string): Promise<ContactRow> {
  if (keepId === absorbId) throw new Error('mergeContacts: a contact cannot absorb itself');
  const rows = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.id, [keepId, absorbId])))
    .orderBy(contacts.id)
    .for('update');
  const keep = rows.find((r) => r.id === keepId);
  const absorb = rows.find((r) => r.id === absorbId);
  if (!keep || !absorb) throw new Error('mergeContacts: both contacts must exist in the workspace');

  const threads = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), inArray(conversations.contactId, [keepId, absorbId])))
    .for('update');
  const keepThread = threads.find((t) => t.contactId === keepId);
  const absorbThread = threads.find((t) => t.contactId === absorbId);
  if (keepThread && absorbThread) await mergeConversations(db, workspaceId, keepThread, absorbThread);
  else if (absorbThread) {
    await db
      .update(conversations)
      .set({ contactId: keepId, updatedAt: sql`now()` })
      .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, absorbThread.id)));
  }

  const moveTo = { contactId: keepId };
  await db
    .update(messages)
    .set({ ...moveTo, updatedAt: sql`now()` })
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, absorbId)));
  await db
    .update(messageStatuses)
    .set(moveTo)
    .where(and(eq(messageStatuses.workspaceId, workspaceId), eq(messageStatuses.contactId, absorbId)));
  await mergeReactions(db, workspaceId, keepId, absorbId);
  await db
    .update(messageRevisions)
    .set(moveTo)
    .where(and(eq(messageRevisions.workspaceId, workspaceId), eq(messageRevisions.contactId, absorbId)));
  await db
    .update(contactIdentityChanges)
    .set(moveTo)
    .where(and(eq(contactIdentityChanges.workspaceId, workspaceId), eq(contactIdentityChanges.contactId, absorbId)));

  // Delete first: the survivor may take over the absorbed contact's phone number or user id.
  const fields = mergedFields(keep, absorb);
  await db.delete(contacts).where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, absorbId)));
  const [merged] = await db
    .update(contacts)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, keepId)))
    .returning();
  await writeAuditLog(db, workspaceId, { action: 'contact.merged', actorId: 'system', targetId: keepId, details: { absorbedId: absorbId, keptId: keepId } });
  return merged!;
}
