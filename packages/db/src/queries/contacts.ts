import { and, asc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { OptKeyword, SubscriberStatus, SubscriberStatusSource } from '@mos/core';
import type { DbOrTx } from '../client';
import { contacts } from '../schema/index';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * Applies the contact's own opt-out/opt-in made at `at`: a keyword (typed, or a quick-reply or
 * interactive button), or a stop/resume in the provider's app (`provider_preference`).
 * Ignored when a later decision exists, whoever made it (replays, out-of-order deliveries),
 * and never lifts `blocked`. Returns the row when changed.
 */
export async function applySubscriberKeyword(
  db: DbOrTx,
  workspaceId: string,
  contactId: string,
  keyword: OptKeyword,
  at: Date,
  source: Exclude<SubscriberStatusSource, 'operator'> = 'keyword',
): Promise<ContactRow | undefined> {
  const next: SubscriberStatus = keyword === 'stop' ? 'unsubscribed' : 'subscribed';
  const [row] = await db
    .update(contacts)
    .set({ subscriberStatus: next, subscriberStatusAt: at, subscriberStatusSource: source, updatedAt: sql`now()` })
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        eq(contacts.id, contactId),
        sql`${contacts.subscriberStatus} <> 'blocked'`,
        sql`(${contacts.subscriberStatusAt} IS NULL OR ${contacts.subscriberStatusAt} < ${at})`,
      ),
    )
    .returning();
  return row;
}

export async function getContact(db: DbOrTx, workspaceId: string, contactId: string): Promise<ContactRow | undefined> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)));
  return row;
}

/** Offset page in creation order (the /internal/contacts listing). */
export async function listContacts(db: DbOrTx, workspaceId: string, page: { limit: number; offset: number }): Promise<ContactRow[]> {
  return db
    .select()
    .from(contacts)
    .where(eq(contacts.workspaceId, workspaceId))
    .orderBy(asc(contacts.createdAt), asc(contacts.id))
    .limit(page.limit)
    .offset(page.offset);
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Keyset page ordered by id (ids sort by creation time), optionally filtered by a search
 * over phone number, name, profile name, email, username and provider user id. `cursor` is the last id of the previous page.
 */
export async function searchContacts(db: DbOrTx, workspaceId: string, opts: { search?: string; cursor?: string; limit: number }): Promise<ContactRow[]> {
  const where: SQL[] = [eq(contacts.workspaceId, workspaceId)];
  if (opts.cursor) where.push(gt(contacts.id, opts.cursor));
  const term = opts.search?.trim();
  if (term) {
    const pattern = `%${likeEscape(term)}%`;
    const digits = term.replace(/[^\d]/g, '');
    where.push(
      or(
        ilike(contacts.phoneNumber, pattern),
        ilike(contacts.name, pattern),
        ilike(contacts.profileName, pattern),
        ilike(contacts.email, pattern),
        ilike(contacts.username, pattern),
        ilike(contacts.providerUserId, pattern),
        ...(digits.length >= 3 && digits.length !== term.length ? [ilike(contacts.phoneNumber, `%${digits}%`)] : []),
      )!,
    );
  }
  return db
    .select()
    .from(contacts)
    .where(and(...where))
    .orderBy(asc(contacts.id))
    .limit(opts.limit);
}

export interface ContactPatch {
  name?: string | null;
  email?: string | null;
  locale?: string | null;
  externalReferenceId?: string | null;
  subscriberStatus?: SubscriberStatus;
}

/** An operator's edit. A status change records `now` so older keywords cannot undo it. */
export async function updateContact(db: DbOrTx, workspaceId: string, contactId: string, patch: ContactPatch, now: Date): Promise<ContactRow | undefined> {
  const set: Partial<typeof contacts.$inferInsert> = { updatedAt: now };
  for (const key of ['name', 'email', 'locale', 'externalReferenceId'] as const) if (patch[key] !== undefined) set[key] = patch[key];
  if (patch.subscriberStatus !== undefined) {
    set.subscriberStatus = patch.subscriberStatus;
    set.subscriberStatusAt = now;
    set.subscriberStatusSource = 'operator';
  }
  const [row] = await db
    .update(contacts)
    .set(set)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)))
    .returning();
  return row;
}
