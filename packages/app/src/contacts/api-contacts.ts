import { z } from 'zod';
import { e164Schema, LIMITS, safeString, SUBSCRIBER_STATUSES } from '@mos/core';
import { listApiContacts, type ContactKeyset } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { contactView, toContactView } from './contacts';

/**
 * GET /v1/contacts: keyset pages of the spec's Contact record for API-key callers. The query
 * schema takes the strings a query string carries and yields typed filters; it is strict, so a
 * misspelt filter (`subscriber_status=`) is a 400 instead of an unfiltered list that a caller
 * could mistake for a match.
 */

const LIMIT = LIMITS.contacts.limit;

/** The cursor is opaque to callers: base64url of the last row's exact creation time and id. */
const KEYSET_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(ctr_[0-9a-z]{26})$/;

export const encodeContactCursor = (k: ContactKeyset): string => Buffer.from(`${k.createdAt}|${k.id}`, 'utf8').toString('base64url');

export function decodeContactCursor(cursor: string): ContactKeyset | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const m = KEYSET_RE.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { createdAt: m[1]!, id: m[2]! } : undefined;
}

/** The ISO format admits no NUL, so no safeString here (which would hide the format from the document). */
const isoTime = z.iso
  .datetime({ offset: true })
  .transform((s) => new Date(s))
  .refine((d) => !Number.isNaN(d.getTime()), 'an ISO 8601 time');

export const apiContactsQuery = z.strictObject({
  phone: e164Schema.optional().describe('Exact phone number in E.164; encode the + as %2B.'),
  email: safeString().trim().min(3).max(320).optional().describe('Exact email address, compared case-insensitively.'),
  externalReferenceId: safeString().min(1).max(200).optional().describe('Exact external reference id.'),
  subscriberStatus: z.enum(SUBSCRIBER_STATUSES).optional(),
  updatedSince: isoTime.optional().describe('Only contacts updated at or after this ISO 8601 time (with offset or Z).'),
  limit: safeString()
    .regex(/^\d{1,6}$/, `an integer from ${LIMIT.min} to ${LIMIT.max}`)
    .transform(Number)
    .pipe(z.number().int().min(LIMIT.min).max(LIMIT.max))
    .optional()
    .describe(`Page size, ${LIMIT.min} to ${LIMIT.max} (default ${LIMIT.default}).`),
  cursor: safeString()
    .max(200)
    .transform((s, ctx) => {
      const keyset = decodeContactCursor(s);
      if (!keyset) ctx.addIssue({ code: 'custom', message: 'not a cursor this API returned' });
      return keyset ?? z.NEVER;
    })
    .optional()
    .describe('The nextCursor of the previous page.'),
});
export type ApiContactsQuery = z.output<typeof apiContactsQuery>;

export const apiContact = contactView.meta({
  id: 'Contact',
  description: 'phoneNumber is E.164, or null for a user the provider knows only by providerUserId.',
});
export const apiContactsResult = z
  .object({
    contacts: z.array(apiContact),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
  })
  .meta({ id: 'ListContactsResponse' });

/** Filters ANDed, creation order; one row more than asked says whether a next page exists. */
export async function listContactsForApi(deps: AppDeps, scope: Scope, query: ApiContactsQuery): Promise<z.infer<typeof apiContactsResult>> {
  const limit = query.limit ?? LIMIT.default;
  const rows = await listApiContacts(deps.db, scope.workspaceId, {
    phoneNumber: query.phone,
    email: query.email,
    externalReferenceId: query.externalReferenceId,
    subscriberStatus: query.subscriberStatus,
    updatedSince: query.updatedSince,
    after: query.cursor,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  // API keys act as `developer`, a role that sees personal data: no redaction applies here.
  return {
    contacts: page.map(toContactView),
    nextCursor: rows.length > limit && last ? encodeContactCursor({ createdAt: last.keysetAt, id: last.id }) : null,
  };
}
