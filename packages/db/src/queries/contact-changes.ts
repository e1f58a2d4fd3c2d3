import { and, asc, eq, sql } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { contactIdentityChanges, contacts } from '../schema/index';
import type { ContactRow } from './contacts';

export type ContactIdentityChangeRow = typeof contactIdentityChanges.$inferSelect;

/** The change a provider message id already applied, if any: a replay finds it and does nothing. */
export async function getIdentityChange(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<ContactIdentityChangeRow | undefined> {
  const c = contactIdentityChanges;
  const [row] = await db
    .select()
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.providerMessageId, providerMessageId)));
  return row;
}

export interface NewIdentityChange {
  contactId: string;
  providerMessageId: string;
  change: ContactIdentityChangeRow['change'];
  previousPhoneNumber?: string | null;
  previousUserId?: string | null;
  newPhoneNumber?: string | null;
  newUserId?: string | null;
  occurredAt: Date;
}

/** Records an applied change once per provider message id; returns false when it was already recorded. */
export async function recordIdentityChange(db: DbOrTx, workspaceId: string, input: NewIdentityChange): Promise<boolean> {
  const rows = await db
    .insert(contactIdentityChanges)
    .values({ id: newId('contactIdentityChange'), workspaceId, ...input })
    .onConflictDoNothing({ target: [contactIdentityChanges.workspaceId, contactIdentityChanges.providerMessageId] })
    .returning({ id: contactIdentityChanges.id });
  return rows.length > 0;
}

/** The identity changes of a contact, oldest first (GDPR export, operators). */
export async function listContactIdentityChanges(db: DbOrTx, workspaceId: string, contactId: string): Promise<ContactIdentityChangeRow[]> {
  const c = contactIdentityChanges;
  return db
    .select()
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), eq(c.contactId, contactId)))
    .orderBy(asc(c.occurredAt), asc(c.id));
}

/**
 * Moves a contact to another phone number and/or user id (a null argument leaves that
 * identifier alone). The caller has merged away any other contact holding the new one.
 */
export async function setContactIdentifiers(
  db: DbOrTx,
  workspaceId: string,
  contactId: string,
  ids: { phoneNumber?: string | null; userId?: string | null },
): Promise<ContactRow> {
  const [row] = await db
    .update(contacts)
    .set({
      phoneNumber: ids.phoneNumber ?? sql`${contacts.phoneNumber}`,
      providerUserId: ids.userId ?? sql`${contacts.providerUserId}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning();
  return row!;
}

/** A `customer_identity_changed` report: keeps the latest time (order-independent). */
export async function markIdentityChanged(db: DbOrTx, workspaceId: string, contactId: string, at: Date): Promise<void> {
  await db
    .update(contacts)
    .set({ identityChangedAt: sql`greatest(${contacts.identityChangedAt}, ${at}::timestamptz)`, updatedAt: sql`now()` })
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)));
}

/**
 * The contact holding a phone number or user id right now, locked for the transaction unless
 * `lock` is false (a read that changes nothing about the contact need not block its writers).
 */
export async function findContactBy(
  db: DbOrTx,
  workspaceId: string,
  by: { phoneNumber: string } | { userId: string },
  opts: { lock?: boolean } = {},
): Promise<ContactRow | undefined> {
  const where = 'phoneNumber' in by ? eq(contacts.phoneNumber, by.phoneNumber) : eq(contacts.providerUserId, by.userId);
  const q = db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), where));
  const [row] = opts.lock === false ? await q : await q.for('update');
  return row;
}
