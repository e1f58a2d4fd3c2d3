import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { contacts, conversations, messages } from '../schema/index';

/**
 * Full-text retrieval for the operator assistant, always inside one workspace. `tsquery` is
 * a `to_tsquery('simple', ...)` string built by core's `toPrefixTsQuery` (letters and
 * digits only) and is still passed as a bound parameter.
 */

// The phone number is null for users who hide it (known by user id): coalesced, or the whole
// document would be null and the contact unfindable by name.
const contactDocument = sql`to_tsvector('simple',
  coalesce(${contacts.name}, '') || ' ' || coalesce(${contacts.profileName}, '') || ' ' || coalesce(${contacts.email}, '') || ' ' ||
  coalesce(${contacts.username}, '') || ' ' || coalesce(${contacts.phoneNumber}, '') || ' ' || replace(coalesce(${contacts.phoneNumber}, ''), '+', ''))`;

/** Contacts whose name, username, email or phone number matches, best first. */
export async function searchContactIdsFullText(db: DbOrTx, workspaceId: string, tsquery: string, limit: number): Promise<string[]> {
  const q = sql`to_tsquery('simple', ${tsquery})`;
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), sql`${contactDocument} @@ ${q}`))
    .orderBy(desc(sql`ts_rank(${contactDocument}, ${q})`), desc(contacts.lastInboundAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Messages whose text or caption matches (the generated `search_vector`), best first. */
export async function searchMessagesFullText(
  db: DbOrTx,
  workspaceId: string,
  tsquery: string,
  limit: number,
): Promise<{ id: string; contactId: string; conversationId: string }[]> {
  const q = sql`to_tsquery('simple', ${tsquery})`;
  return db
    .select({ id: messages.id, contactId: messages.contactId, conversationId: messages.conversationId })
    .from(messages)
    .where(and(eq(messages.workspaceId, workspaceId), sql`${messages.searchVector} @@ ${q}`))
    .orderBy(desc(sql`ts_rank(${messages.searchVector}, ${q})`), desc(messages.sentAt))
    .limit(limit);
}

/** The rows needed to describe the given contacts: contact, its conversation, recent messages. */
export async function loadAssistantContext(db: DbOrTx, workspaceId: string, contactIds: string[], messagesPerContact: number) {
  if (contactIds.length === 0) return [];
  const [contactRows, conversationRows, messageRows] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.id, contactIds))),
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.workspaceId, workspaceId), inArray(conversations.contactId, contactIds))),
    db.execute<{ contact_id: string; direction: string; sent_at: Date; body: string | null; caption: string | null }>(sql`
      SELECT contact_id, direction, sent_at, body, caption FROM (
        SELECT contact_id, direction, sent_at, body, caption,
               row_number() OVER (PARTITION BY contact_id ORDER BY sent_at DESC, id DESC) AS n
          FROM messages
         WHERE workspace_id = ${workspaceId} AND contact_id IN (${sql.join(
           contactIds.map((id) => sql`${id}`),
           sql`, `,
         )})
           AND (body IS NOT NULL OR caption IS NOT NULL)
      ) recent WHERE n <= ${messagesPerContact} ORDER BY sent_at`),
  ]);
  return contactIds.flatMap((id) => {
    const contact = contactRows.find((c) => c.id === id);
    if (!contact) return [];
    return [
      {
        contact,
        conversation: conversationRows.find((c) => c.contactId === id) ?? null,
        messages: messageRows.rows
          .filter((m) => m.contact_id === id)
          .map((m) => ({ direction: m.direction, sentAt: new Date(m.sent_at), text: [m.body, m.caption].filter(Boolean).join(' ') })),
      },
    ];
  });
}
