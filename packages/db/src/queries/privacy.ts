import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { envelopeIdentityNeedles } from '@mos/core';
import type { DbOrTx } from '../client';
import { contactIdentityChanges, contacts, journeyRuns, messageReactions, messageRevisions, messages, webhookEvents } from '../schema/index';
import { REMOVED_CONTENT } from './message-revisions';

export interface EnvelopeRef {
  id: string;
  topic: string;
  receivedAt: Date;
}

/**
 * Stored webhook envelopes of the workspace whose raw body names the phone number. A scan
 * of the workspace's bodies: GDPR requests are rare, and the envelope is the only place
 * some deliveries (invalid signatures, unparseable bodies) tie to a person.
 */
export async function findEnvelopesNamingPhone(db: DbOrTx, workspaceId: string, phoneE164: string): Promise<EnvelopeRef[]> {
  return findEnvelopesNaming(db, workspaceId, envelopeIdentityNeedles({ phoneNumber: phoneE164, providerUserId: null }));
}

/**
 * The same scan for a contact: its phone number and user id, and every number and user id it
 * had before a provider identity change (`contact_identity_changes`), since the envelopes from
 * before a number change name only the old number.
 */
export async function findEnvelopesNamingContact(
  db: DbOrTx,
  workspaceId: string,
  contact: { id: string; phoneNumber: string | null; providerUserId: string | null },
): Promise<EnvelopeRef[]> {
  const c = contactIdentityChanges;
  const changes = await db
    .select({ previousPhoneNumber: c.previousPhoneNumber, previousUserId: c.previousUserId, newPhoneNumber: c.newPhoneNumber, newUserId: c.newUserId })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.contactId, contact.id)));
  const identities = [
    contact,
    ...changes.flatMap((ch) => [
      { phoneNumber: ch.previousPhoneNumber, providerUserId: ch.previousUserId },
      { phoneNumber: ch.newPhoneNumber, providerUserId: ch.newUserId },
    ]),
  ];
  return findEnvelopesNaming(db, workspaceId, [...new Set(identities.flatMap(envelopeIdentityNeedles))], contact.id);
}

/**
 * Bodies naming any needle; with a contact id, also the compat calls resolved to that contact
 * (a contact upsert's summary names it; a journey trigger or partner event is the trigger of
 * one of its runs, replays included), whatever way the caller wrote the phone number.
 */
async function findEnvelopesNaming(db: DbOrTx, workspaceId: string, needles: string[], contactId?: string): Promise<EnvelopeRef[]> {
  const conditions = needles.map((n) => sql`position(convert_to(${n}, 'UTF8') in ${webhookEvents.rawBody}) > 0`);
  if (contactId) {
    conditions.push(sql`(${webhookEvents.source} = 'compat' AND (${webhookEvents.summary}->>'contactId' = ${contactId}
      OR ${webhookEvents.summary}->>'rootEventId' IN (SELECT ${journeyRuns.triggerRef} FROM ${journeyRuns}
        WHERE ${journeyRuns.workspaceId} = ${workspaceId} AND ${journeyRuns.contactId} = ${contactId})))`);
  }
  if (conditions.length === 0) return [];
  const match = sql.join(conditions, sql` OR `);
  return db
    .select({ id: webhookEvents.id, topic: webhookEvents.topic, receivedAt: webhookEvents.receivedAt })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), isNotNull(webhookEvents.rawBody), sql`(${match})`))
    .orderBy(asc(webhookEvents.receivedAt), asc(webhookEvents.id));
}

/** Nulls raw bodies and marks why; the row (ids, hashes, timing) stays for the audit trail. */
export async function redactEnvelopeBodies(db: DbOrTx, workspaceId: string, ids: string[], reason: 'gdpr_erasure' | 'retention', now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(webhookEvents)
    .set({ rawBody: null, rawBodyRedactedAt: now, rawBodyRedaction: reason })
    .where(and(eq(webhookEvents.workspaceId, workspaceId), inArray(webhookEvents.id, ids)))
    .returning({ id: webhookEvents.id });
  return rows.length;
}

/**
 * Removes message content (text, caption, media reference, reply payload, typed content,
 * context, referral) of the contact's messages, every stored version of them (edits) and
 * the contact's reactions; message rows stay for counts. Returns the number of messages.
 */
export async function removeContactMessageContent(db: DbOrTx, workspaceId: string, contactId: string, now: Date): Promise<number> {
  const rows = await db
    .update(messages)
    .set({ ...REMOVED_CONTENT, contentRemovedAt: sql`coalesce(${messages.contentRemovedAt}, ${now})`, updatedAt: now })
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)))
    .returning({ id: messages.id });
  const own = db
    .select({ id: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)));
  await db
    .update(messageRevisions)
    .set({ content: null, text: null })
    .where(and(eq(messageRevisions.workspaceId, workspaceId), or(eq(messageRevisions.contactId, contactId), inArray(messageRevisions.messageProviderId, own))));
  await db.delete(messageReactions).where(and(eq(messageReactions.workspaceId, workspaceId), eq(messageReactions.contactId, contactId)));
  return rows.length;
}

/**
 * Replaces the identifying fields of a contact (phone number by the token; user id, username,
 * country, names, email, external id, source type and properties cleared; journey runs'
 * personalization emptied) and deletes its recorded identity changes
 * (old numbers and user ids); the id, status and timestamps stay for aggregates.
 */
export async function anonymizeContactRow(db: DbOrTx, workspaceId: string, contactId: string, token: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(contacts)
    .set({
      phoneNumber: token,
      providerUserId: null,
      username: null,
      countryCode: null,
      name: null,
      profileName: null,
      email: null,
      externalReferenceId: null,
      sourceType: null,
      properties: {},
      anonymizedAt: now,
      updatedAt: now,
    })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning({ id: contacts.id });
  if (rows.length === 0) return false;
  await db.delete(contactIdentityChanges).where(and(eq(contactIdentityChanges.workspaceId, workspaceId), eq(contactIdentityChanges.contactId, contactId)));
  // A journey run's trigger keys (names, codes) are the contact's data too; the run's ids and steps stay.
  await db
    .update(journeyRuns)
    .set({ personalization: {}, updatedAt: now })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.contactId, contactId)));
  return true;
}
