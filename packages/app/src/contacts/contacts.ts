import { z } from 'zod';
import {
  AppError,
  LIMITS,
  pageSchema,
  REDACTED,
  redactContactIdentity,
  redactMessageContent,
  seesPersonalData,
  SUBSCRIBER_STATUS_SOURCES,
  SUBSCRIBER_STATUSES,
  isoOrNull,
  safeString,
} from '@mos/core';
import {
  contactMessageIds,
  getContact,
  listContactConversations,
  listContactMessages,
  listContacts,
  listMessageReactions,
  listMessageRevisions,
  searchContacts,
  updateContact,
  writeAuditLog,
  type ContactRow,
  type ConversationRow,
  type MessageReactionRow,
  type MessageRevisionRow,
  type MessageRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

/**
 * The spec's Contact record (GET /internal/contacts). Unknown fields are null; `phoneNumber`
 * is null for a user who hides their number, known by the provider's business-scoped user id.
 */
export const contactView = z.object({
  id: z.string(),
  phoneNumber: z.string().nullable(),
  providerUserId: z.string().nullable(),
  username: z.string().nullable(),
  countryCode: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  externalReferenceId: z.string().nullable(),
  subscriberStatus: z.enum(SUBSCRIBER_STATUSES),
  locale: z.string().nullable(),
});
export type ContactView = z.infer<typeof contactView>;

export const contactDetailView = contactView.extend({
  profileName: z.string().nullable(),
  /** Who made the last subscriber-status decision (null: nobody yet). */
  subscriberStatusSource: z.enum(SUBSCRIBER_STATUS_SOURCES).nullable(),
  /** The provider's latest report that the user's security identity changed. */
  identityChangedAt: z.string().nullable(),
  lastInboundAt: z.string().nullable(),
  anonymized: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const toContactView = (c: ContactRow): ContactView => ({
  id: c.id,
  phoneNumber: c.phoneNumber,
  providerUserId: c.providerUserId,
  username: c.username,
  countryCode: c.countryCode,
  name: c.name,
  email: c.email,
  externalReferenceId: c.externalReferenceId,
  subscriberStatus: c.subscriberStatus,
  locale: c.locale,
});

const toDetail = (c: ContactRow): z.infer<typeof contactDetailView> => ({
  ...toContactView(c),
  profileName: c.profileName,
  subscriberStatusSource: c.subscriberStatusSource,
  identityChangedAt: isoOrNull(c.identityChangedAt),
  lastInboundAt: isoOrNull(c.lastInboundAt),
  anonymized: c.anonymizedAt !== null,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const conversationView = z.object({
  id: z.string(),
  lastMessageAt: z.string().nullable(),
  lastInboundAt: z.string().nullable(),
  windowOpenedAt: z.string().nullable(),
  windowExpiresAt: z.string().nullable(),
  /** Whether a free-form (non-template) message may be sent now. */
  serviceWindowOpen: z.boolean(),
  providerConversationId: z.string().nullable(),
  providerWindowExpiresAt: z.string().nullable(),
  pricingCategory: z.string().nullable(),
});

export const toConversationView = (c: ConversationRow, now: Date): z.infer<typeof conversationView> => ({
  id: c.id,
  lastMessageAt: isoOrNull(c.lastMessageAt),
  lastInboundAt: isoOrNull(c.lastInboundAt),
  windowOpenedAt: isoOrNull(c.windowOpenedAt),
  windowExpiresAt: isoOrNull(c.windowExpiresAt),
  serviceWindowOpen: c.windowExpiresAt !== null && c.windowExpiresAt.getTime() > now.getTime(),
  providerConversationId: c.providerConversationId,
  providerWindowExpiresAt: isoOrNull(c.providerWindowExpiresAt),
  pricingCategory: c.pricingCategory,
});

export const messageView = z.object({
  id: z.string(),
  conversationId: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  providerMessageId: z.string(),
  type: z.string(),
  body: z.string().nullable(),
  caption: z.string().nullable(),
  mediaId: z.string().nullable(),
  mediaMimeType: z.string().nullable(),
  contextMessageId: z.string().nullable(),
  /** The whole typed content (core MessageContent: text, media, location, contacts, interactive, button, order, ...). */
  content: z.record(z.string(), z.unknown()).nullable(),
  /** Reply-to, forwarded flags, referred product. */
  context: z.record(z.string(), z.unknown()).nullable(),
  /** The click-to-chat ad or post that started the conversation. */
  referral: z.record(z.string(), z.unknown()).nullable(),
  sentAt: z.string(),
  status: z.string().nullable(),
  failedAt: z.string().nullable(),
  errorCode: z.number().nullable(),
  contentRemoved: z.boolean(),
  /** When the customer last edited it (the content is the edited one). */
  editedAt: z.string().nullable(),
  /** When the customer deleted it (its content is removed). */
  revokedAt: z.string().nullable(),
  /** The contacts' current reactions to it (removed ones left out). */
  reactions: z.array(z.object({ contactId: z.string(), emoji: z.string(), occurredAt: z.string() })),
  /**
   * Its edit history, oldest first: `original` (the content as first received, kept once it
   * was edited), each `edit`, and a `revoke`. Empty when never edited or deleted. Content
   * removed by a revoke, an erasure or retention is null here too.
   */
  versions: z.array(
    z.object({
      kind: z.enum(['original', 'edit', 'revoke']),
      occurredAt: z.string(),
      content: z.record(z.string(), z.unknown()).nullable(),
      text: z.string().nullable(),
    }),
  ),
});

const asRecord = (v: object | null) => v as Record<string, unknown> | null;

/** `reactions` and `versions` may cover other messages too: each message takes its own. */
export const toMessageView = (m: MessageRow, reactions: MessageReactionRow[] = [], versions: MessageRevisionRow[] = []): z.infer<typeof messageView> => ({
  id: m.id,
  conversationId: m.conversationId,
  direction: m.direction,
  providerMessageId: m.providerMessageId,
  type: m.type,
  body: m.body,
  caption: m.caption,
  mediaId: m.mediaId,
  mediaMimeType: m.mediaMimeType,
  contextMessageId: m.contextMessageId,
  content: asRecord(m.content),
  context: asRecord(m.context),
  referral: asRecord(m.referral),
  sentAt: m.sentAt.toISOString(),
  status: m.status,
  failedAt: isoOrNull(m.failedAt),
  errorCode: m.errorCode,
  contentRemoved: m.contentRemovedAt !== null,
  editedAt: isoOrNull(m.editedAt),
  revokedAt: isoOrNull(m.revokedAt),
  reactions: reactions
    .filter((r) => r.reactedToMessageId === m.providerMessageId && r.emoji !== null)
    .map((r) => ({ contactId: r.contactId, emoji: r.emoji!, occurredAt: r.occurredAt.toISOString() })),
  versions: versions
    .filter((v) => v.messageProviderId === m.providerMessageId)
    .map((v) => ({ kind: v.kind, occurredAt: v.occurredAt.toISOString(), content: asRecord(v.content), text: v.text })),
});

type Detail = z.infer<typeof contactDetailView>;
const hide = (v: string | null) => (v === null ? null : REDACTED);
/**
 * A viewer's copy (docs/security.md): numbers masked, user ids, usernames, names, emails and
 * message content hidden (typed content keeps only its kind and shape).
 */
function redactContact<T extends ContactView & Partial<Pick<Detail, 'profileName'>>>(c: T): T {
  return {
    ...redactContactIdentity(c),
    name: hide(c.name),
    email: hide(c.email),
    ...('profileName' in c ? { profileName: hide(c.profileName ?? null) } : {}),
  };
}
type RecordOrNull = Record<string, unknown> | null;
function redactMessage(m: z.infer<typeof messageView>): z.infer<typeof messageView> {
  return {
    ...m,
    body: hide(m.body),
    caption: hide(m.caption),
    content: redactMessageContent(m.content) as RecordOrNull,
    context: redactMessageContent(m.context) as RecordOrNull,
    referral: redactMessageContent(m.referral) as RecordOrNull,
    reactions: m.reactions.map((r) => ({ ...r, emoji: REDACTED })),
    versions: m.versions.map((v) => ({ ...v, content: redactMessageContent(v.content) as RecordOrNull, text: hide(v.text) })),
  };
}
const personal = (scope: Scope) => seesPersonalData(scope.role);

export const listWorkspaceContactsInput = pageSchema(LIMITS.contacts);

/** GET /internal/contacts: the spec's Contact records, an offset page. */
export async function listWorkspaceContacts(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listWorkspaceContactsInput> = {},
): Promise<{ contacts: ContactView[] }> {
  const page = listWorkspaceContactsInput.parse(input);
  const contacts = (await listContacts(deps.db, scope.workspaceId, page)).map(toContactView);
  return { contacts: personal(scope) ? contacts : contacts.map(redactContact) };
}

const idSchema = safeString().min(1).max(64);

/** Keyset pages (`cursor` = the last id of the previous page) of the same size as GET /internal/contacts. */
export const listContactsInput = z.object({
  search: safeString().trim().max(200).optional(),
  cursor: idSchema.optional(),
  ...pageSchema({ limit: LIMITS.contacts.limit }).shape,
});

export const contactListView = z.object({ contacts: z.array(contactDetailView), nextCursor: z.string().nullable() });

/** contacts.list: search by phone, name, email, username or user id; keyset pagination by id. */
export async function searchWorkspaceContacts(deps: AppDeps, scope: Scope, input: z.output<typeof listContactsInput>) {
  const rows = await searchContacts(deps.db, scope.workspaceId, { search: input.search, cursor: input.cursor, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const contacts = page.map(toDetail);
  return { contacts: personal(scope) ? contacts : contacts.map(redactContact), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

export const contactDetailsView = z.object({
  contact: contactDetailView,
  conversations: z.array(conversationView),
  recentMessages: z.array(messageView),
});

export const RECENT_MESSAGES = 50;

/** contacts.get: the contact, its conversations and its latest messages (newest first). */
export async function getContactDetails(deps: AppDeps, scope: Scope, contactId: string): Promise<z.infer<typeof contactDetailsView>> {
  const contact = await getContact(deps.db, scope.workspaceId, contactId);
  if (!contact) throw new AppError('not_found', { message: 'contact not found' });
  const now = deps.clock.now();
  // The page's reactions and versions are read beside it, selecting the same page by subquery.
  const page = contactMessageIds(deps.db, scope.workspaceId, contactId, RECENT_MESSAGES);
  const [conversations, messages, reactions, versions] = await Promise.all([
    listContactConversations(deps.db, scope.workspaceId, contactId),
    listContactMessages(deps.db, scope.workspaceId, contactId, { limit: RECENT_MESSAGES }),
    listMessageReactions(deps.db, scope.workspaceId, page),
    listMessageRevisions(deps.db, scope.workspaceId, page),
  ]);
  const view = {
    contact: toDetail(contact),
    conversations: conversations.map((c) => toConversationView(c, now)),
    recentMessages: messages.map((m) => toMessageView(m, reactions, versions)),
  };
  return personal(scope) ? view : { ...view, contact: redactContact(view.contact), recentMessages: view.recentMessages.map(redactMessage) };
}

const nullableText = (max: number) => safeString().trim().min(1).max(max).nullable().optional();

export const updateContactInput = z.object({
  id: idSchema,
  name: nullableText(200),
  email: safeString().trim().toLowerCase().email().max(320).nullable().optional(),
  locale: safeString()
    .trim()
    .regex(/^[a-z]{2,3}(?:_[A-Z]{2})?$/, 'locale: a code such as en_US or it')
    .nullable()
    .optional(),
  externalReferenceId: nullableText(200),
  subscriberStatus: z.enum(SUBSCRIBER_STATUSES).optional(),
});

/** contacts.update: an operator's edit, audited with the field names (never the values). */
export async function updateWorkspaceContact(deps: AppDeps, scope: Scope, input: z.output<typeof updateContactInput>) {
  const { id, ...patch } = input;
  return deps.db.transaction(async (tx) => {
    const existing = await getContact(tx, scope.workspaceId, id);
    if (!existing) throw new AppError('not_found', { message: 'contact not found' });
    if (existing.anonymizedAt) throw new AppError('conflict', { message: 'contact was erased' });
    const row = await updateContact(tx, scope.workspaceId, id, patch, deps.clock.now());
    const fields = Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined);
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'contact.update',
      actorId: scope.actorId,
      targetId: id,
      details: { fields, ...(patch.subscriberStatus ? { subscriberStatus: patch.subscriberStatus } : {}) },
    });
    return toDetail(row!);
  });
}
