import { and, asc, eq, getTableColumns, gte, isNull, sql, type SQL } from 'drizzle-orm';
import type { SubscriberStatus } from '@mos/core';
import type { DbOrTx } from '../client';
import { contacts } from '../schema/index';
import type { ContactRow } from './contacts';

/** Where a keyset page of GET /v1/contacts resumes: the last row's exact creation time and id. */
export interface ContactKeyset {
  /** `created_at` at full (microsecond) precision, as `contactKeysetTime` renders it. */
  createdAt: string;
  id: string;
}

export interface ApiContactFilter {
  phoneNumber?: string;
  email?: string;
  externalReferenceId?: string;
  subscriberStatus?: SubscriberStatus;
  updatedSince?: Date;
  after?: ContactKeyset;
  limit: number;
}

/**
 * A JS Date holds milliseconds while `created_at` holds microseconds: a cursor made from a Date
 * would compare unequal to its own row and repeat or skip it. The keyset is therefore carried
 * as PostgreSQL renders it, in UTC.
 */
const keysetTime = sql<string>`to_char(${contacts.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * GET /v1/contacts: the workspace's contacts in creation order (the `contacts_ws_created_idx`
 * order, so a page is an index range), every given filter ANDed. Erased (anonymized) contacts
 * are left out: what remains of them is a token, not a person an integration can act on.
 * Emails compare case-insensitively (legacy upserts stored them as sent).
 */
export async function listApiContacts(db: DbOrTx, workspaceId: string, f: ApiContactFilter): Promise<Array<ContactRow & { keysetAt: string }>> {
  const where: SQL[] = [eq(contacts.workspaceId, workspaceId), isNull(contacts.anonymizedAt)];
  if (f.phoneNumber !== undefined) where.push(eq(contacts.phoneNumber, f.phoneNumber));
  if (f.email !== undefined) where.push(sql`lower(${contacts.email}) = lower(${f.email})`);
  if (f.externalReferenceId !== undefined) where.push(eq(contacts.externalReferenceId, f.externalReferenceId));
  if (f.subscriberStatus !== undefined) where.push(eq(contacts.subscriberStatus, f.subscriberStatus));
  if (f.updatedSince !== undefined) where.push(gte(contacts.updatedAt, f.updatedSince));
  if (f.after) where.push(sql`(${contacts.createdAt}, ${contacts.id}) > (${f.after.createdAt}::timestamptz, ${f.after.id})`);
  return db
    .select({ ...getTableColumns(contacts), keysetAt: keysetTime })
    .from(contacts)
    .where(and(...where))
    .orderBy(asc(contacts.createdAt), asc(contacts.id))
    .limit(f.limit);
}
