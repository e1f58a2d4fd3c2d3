import { and, asc, eq, gte, or, sql, type SQL } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { contactIdentityChanges, contacts } from '../schema/index';
import type { ContactRow } from './contacts';
import { mergeContacts } from './contact-merge';

/**
 * Who a family is about, as stored: the phone number already in E.164 (`toE164` of the
 * provider's `wa_id`), the business-scoped user id, and the profile the provider sent.
 * At least one of phoneNumber/userId is set. Personal data.
 */
export interface ContactIdentityInput {
  phoneNumber: string | null;
  userId: string | null;
  profileName?: string | null;
  username?: string | null;
  countryCode?: string | null;
}

export interface ResolveOptions {
  /** The family's provider time. */
  at: Date;
  /**
   * A message from the contact: the profile follows it when it is not older than the last
   * inbound message, and `last_inbound_at` moves forward. Other families only fill blanks.
   */
  inbound?: boolean;
}

const blank = (v: string | null | undefined) => v?.trim() || null;

async function byColumn(db: DbOrTx, workspaceId: string, where: SQL): Promise<ContactRow | undefined> {
  const [row] = await db.select().from(contacts).where(and(eq(contacts.workspaceId, workspaceId), where)).for('update');
  return row;
}

/**
 * The contact an identity change moved away from this old number or user id, when the family
 * happened before that change: a message from the old number sent before the change but
 * delivered after it. Later families from the old number are someone else (numbers are
 * recycled) and get their own contact.
 */
async function movedAway(db: DbOrTx, workspaceId: string, identity: ContactIdentityInput, at: Date): Promise<ContactRow | undefined> {
  const c = contactIdentityChanges;
  const match = [
    identity.phoneNumber ? eq(c.previousPhoneNumber, identity.phoneNumber) : undefined,
    identity.userId ? eq(c.previousUserId, identity.userId) : undefined,
  ].filter((x): x is SQL => x !== undefined);
  if (match.length === 0) return undefined;
  const [change] = await db
    .select({ contactId: c.contactId })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), or(...match), gte(c.occurredAt, at)))
    .orderBy(asc(c.occurredAt))
    .limit(1);
  return change ? byColumn(db, workspaceId, eq(contacts.id, change.contactId)) : undefined;
}

/**
 * Finds the contact of an identity, by phone number first, then by user id, then through a
 * recorded identity change; creates it when none matches. When the family reveals both
 * identifiers, the missing one is attached to the contact found (never a duplicate); a
 * hidden-number user found by user id and a contact found by the same phone number are one
 * person and merge. Identifiers the contact already has are never overwritten here: only
 * the provider's change events move them (`contact.changed`). Rows are locked for the
 * transaction, and a concurrent creation of the same contact is absorbed by re-reading.
 */
export async function resolveContact(
  db: DbOrTx,
  workspaceId: string,
  identity: ContactIdentityInput,
  opts: ResolveOptions,
  retried = false,
): Promise<ContactRow> {
  const phone = identity.phoneNumber;
  const userId = identity.userId;
  if (!phone && !userId) throw new Error('resolveContact: an identity needs a phone number or a user id');
  let byPhone = phone ? await byColumn(db, workspaceId, eq(contacts.phoneNumber, phone)) : undefined;
  const byUser = userId ? await byColumn(db, workspaceId, eq(contacts.providerUserId, userId)) : undefined;
  if (byPhone && byUser && byPhone.id !== byUser.id && byUser.phoneNumber === null && byPhone.providerUserId === null) {
    byPhone = await mergeContacts(db, workspaceId, byPhone.id, byUser.id);
  }
  const found = byPhone ?? byUser ?? (await movedAway(db, workspaceId, identity, opts.at));
  if (found) {
    return updateProfile(db, workspaceId, found, {
      // Attach an identifier only when nobody holds it (the lookups above saw no holder).
      phoneNumber: phone && found.phoneNumber === null && !byPhone ? phone : null,
      userId: userId && found.providerUserId === null && !byUser ? userId : null,
      identity,
      opts,
    });
  }
  const profileName = blank(identity.profileName);
  const [inserted] = await db
    .insert(contacts)
    .values({
      id: newId('contact'),
      workspaceId,
      phoneNumber: phone,
      providerUserId: userId,
      username: blank(identity.username),
      countryCode: blank(identity.countryCode),
      name: profileName,
      profileName,
      lastInboundAt: opts.inbound ? opts.at : null,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  // Another transaction created it between our read and our insert: it is committed now.
  if (retried) throw new Error('resolveContact: the contact conflicts but cannot be found');
  return resolveContact(db, workspaceId, identity, opts, true);
}

function updateProfile(
  db: DbOrTx,
  workspaceId: string,
  found: ContactRow,
  input: { phoneNumber: string | null; userId: string | null; identity: ContactIdentityInput; opts: ResolveOptions },
): Promise<ContactRow> {
  const c = contacts;
  const at = input.opts.at;
  const profile = {
    profileName: blank(input.identity.profileName),
    username: blank(input.identity.username),
    countryCode: blank(input.identity.countryCode),
  };
  // Inbound: the newest message's profile wins (a replayed old one never rolls it back);
  // anything else only fills what is unknown.
  const follow = (column: typeof c.profileName | typeof c.username | typeof c.countryCode, value: string | null) =>
    value === null
      ? sql`${column}`
      : input.opts.inbound
        ? sql`CASE WHEN ${c.lastInboundAt} IS NULL OR ${c.lastInboundAt} <= ${at} THEN ${value} ELSE coalesce(${column}, ${value}) END`
        : sql`coalesce(${column}, ${value})`;
  return db
    .update(c)
    .set({
      phoneNumber: input.phoneNumber ? input.phoneNumber : sql`${c.phoneNumber}`,
      providerUserId: input.userId ? input.userId : sql`${c.providerUserId}`,
      profileName: follow(c.profileName, profile.profileName),
      username: follow(c.username, profile.username),
      countryCode: follow(c.countryCode, profile.countryCode),
      name: profile.profileName === null ? sql`${c.name}` : sql`coalesce(${c.name}, ${profile.profileName})`,
      lastInboundAt: input.opts.inbound ? sql`greatest(${c.lastInboundAt}, ${at})` : sql`${c.lastInboundAt}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, found.id)))
    .returning()
    .then((rows) => rows[0]!);
}
