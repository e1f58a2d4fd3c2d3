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

/** Reads without a lock: most families only find their contact, and writing paths lock as they write. */
async function byColumn(db: DbOrTx, workspaceId: string, where: SQL, lock = false): Promise<ContactRow | undefined> {
  const q = db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), where));
  const [row] = lock ? await q.for('update') : await q;
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
 * the provider's change events move them (`contact.changed`).
 *
 * Most families (every status) only find their contact: then nothing is locked or written.
 * A merge re-reads both rows locked; an attach, a profile fill or an inbound message updates
 * the row with expressions that hold under concurrent writers (coalesce, greatest), and a
 * concurrent creation of the same contact is absorbed by re-reading.
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
  const lookup = async (lock: boolean) => ({
    byPhone: phone ? await byColumn(db, workspaceId, eq(contacts.phoneNumber, phone), lock) : undefined,
    byUser: userId ? await byColumn(db, workspaceId, eq(contacts.providerUserId, userId), lock) : undefined,
  });
  const mergeable = (l: Awaited<ReturnType<typeof lookup>>) =>
    !!l.byPhone && !!l.byUser && l.byPhone.id !== l.byUser.id && l.byUser.phoneNumber === null && l.byPhone.providerUserId === null;
  let found = await lookup(false);
  if (mergeable(found)) {
    // Judged again under the rows' locks: a concurrent writer may have changed either.
    found = await lookup(true);
    if (mergeable(found)) found.byPhone = await mergeContacts(db, workspaceId, found.byPhone!.id, found.byUser!.id);
  }
  const { byPhone, byUser } = found;
  const contact = byPhone ?? byUser ?? (await movedAway(db, workspaceId, identity, opts.at));
  if (contact) {
    const change = {
      // Attach an identifier only when nobody holds it (the lookups above saw no holder).
      phoneNumber: phone && contact.phoneNumber === null && !byPhone ? phone : null,
      userId: userId && contact.providerUserId === null && !byUser ? userId : null,
      identity,
      opts,
    };
    if (!changesContact(contact, change)) return contact;
    const updated = await updateProfile(db, workspaceId, contact, change);
    if (updated) return updated;
    // Merged away or erased by a concurrent transaction since we read it: look again.
    if (retried) throw new Error('resolveContact: the contact changed under us twice');
    return resolveContact(db, workspaceId, identity, opts, true);
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

interface ProfileChange {
  phoneNumber: string | null;
  userId: string | null;
  identity: ContactIdentityInput;
  opts: ResolveOptions;
}

/**
 * Whether `updateProfile` could change the row: always for an inbound message (it moves
 * `last_inbound_at` and the profile follows it); otherwise only an identifier to attach or a
 * blank the family can fill.
 */
function changesContact(found: ContactRow, input: ProfileChange): boolean {
  if (input.opts.inbound || input.phoneNumber || input.userId) return true;
  const profileName = blank(input.identity.profileName);
  const fills = (current: string | null, value: string | null) => current === null && value !== null;
  return (
    fills(found.profileName, profileName) ||
    fills(found.name, profileName) ||
    fills(found.username, blank(input.identity.username)) ||
    fills(found.countryCode, blank(input.identity.countryCode))
  );
}

/** Undefined when the row is gone (merged away concurrently). */
function updateProfile(db: DbOrTx, workspaceId: string, found: ContactRow, input: ProfileChange): Promise<ContactRow | undefined> {
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
      // coalesce: an identifier a concurrent transaction attached first is kept.
      phoneNumber: input.phoneNumber ? sql`coalesce(${c.phoneNumber}, ${input.phoneNumber})` : sql`${c.phoneNumber}`,
      providerUserId: input.userId ? sql`coalesce(${c.providerUserId}, ${input.userId})` : sql`${c.providerUserId}`,
      profileName: follow(c.profileName, profile.profileName),
      username: follow(c.username, profile.username),
      countryCode: follow(c.countryCode, profile.countryCode),
      name: profile.profileName === null ? sql`${c.name}` : sql`coalesce(${c.name}, ${profile.profileName})`,
      lastInboundAt: input.opts.inbound ? sql`greatest(${c.lastInboundAt}, ${at})` : sql`${c.lastInboundAt}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(c.workspaceId, workspaceId), eq(c.id, found.id)))
    .returning()
    .then((rows) => rows[0]);
}
