import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { envelopePhoneNeedles } from '@mos/core';
import type { DbOrTx } from '../client';
import { contacts, messages, webhookEvents } from '../schema/index';

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
  const needles = envelopePhoneNeedles(phoneE164);
  const match = sql.join(
    needles.map((n) => sql`position(convert_to(${n}, 'UTF8') in ${webhookEvents.rawBody}) > 0`),
    sql` OR `,
  );
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

/** Removes message content (text, caption, media reference, reply payload); rows stay for counts. */
export async function removeContactMessageContent(db: DbOrTx, workspaceId: string, contactId: string, now: Date): Promise<number> {
  const rows = await db
    .update(messages)
    .set({ body: null, caption: null, mediaId: null, payload: null, contentRemovedAt: sql`coalesce(${messages.contentRemovedAt}, ${now})`, updatedAt: now })
    .where(and(eq(messages.workspaceId, workspaceId), eq(messages.contactId, contactId)))
    .returning({ id: messages.id });
  return rows.length;
}

/** Replaces the identifying fields of a contact; the id, status and timestamps stay for aggregates. */
export async function anonymizeContactRow(db: DbOrTx, workspaceId: string, contactId: string, token: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(contacts)
    .set({ phoneNumber: token, name: null, profileName: null, email: null, externalReferenceId: null, anonymizedAt: now, updatedAt: now })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}
