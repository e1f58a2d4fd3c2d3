import { z } from 'zod';
import { AppError, anonymousPhoneToken, GDPR_EXPORT_VERSION, SUBSCRIBER_STATUS_SOURCES, isoOrNull, safeString } from '@mos/core';
import {
  anonymizeContactRow,
  findEnvelopesNamingContact,
  getContact,
  listContactConversations,
  listContactIdentityChanges,
  listContactInboundRuns,
  listContactMessages,
  listContactReactions,
  listContactRevisions,
  listContactStatuses,
  listConversationWindows,
  redactEnvelopeBodies,
  removeContactMessageContent,
  writeAuditLog,
} from '@mos/db';
import type { AppDeps } from '../deps';
import { contactView, conversationView, messageView, toContactView, toConversationView, toMessageView } from './contacts';
import type { Scope } from '../scope';

/** Everything stored about one contact, as a versioned document (see docs/contacts.md). */
export const gdprExportView = z.object({
  version: z.literal(GDPR_EXPORT_VERSION),
  exportedAt: z.string(),
  contact: contactView.extend({
    profileName: z.string().nullable(),
    subscriberStatusAt: z.string().nullable(),
    subscriberStatusSource: z.enum(SUBSCRIBER_STATUS_SOURCES).nullable(),
    lastInboundAt: z.string().nullable(),
    identityChangedAt: z.string().nullable(),
    anonymizedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  conversations: z.array(
    conversationView.extend({
      providerWindows: z.array(
        z.object({
          providerConversationId: z.string(),
          originType: z.string().nullable(),
          openedAt: z.string(),
          expiresAt: z.string().nullable(),
          billable: z.boolean().nullable(),
          pricingModel: z.string().nullable(),
          pricingCategory: z.string().nullable(),
        }),
      ),
    }),
  ),
  messages: z.array(messageView.extend({ payload: z.record(z.string(), z.unknown()).nullable() })),
  deliveryHistory: z.array(
    z.object({
      providerMessageId: z.string(),
      status: z.string(),
      occurredAt: z.string(),
      errorCode: z.number().nullable(),
      errorTitle: z.string().nullable(),
      errorDetails: z.string().nullable(),
      providerConversationId: z.string().nullable(),
      pricingCategory: z.string().nullable(),
    }),
  ),
  /** Every stored version of the contact's edited or deleted messages (original, edits, revoke). */
  messageVersions: z.array(
    z.object({
      messageProviderId: z.string(),
      kind: z.string(),
      providerMessageId: z.string(),
      occurredAt: z.string(),
      type: z.string().nullable(),
      content: z.record(z.string(), z.unknown()).nullable(),
      text: z.string().nullable(),
    }),
  ),
  /** The contact's current reactions, including removals (emoji null). */
  reactions: z.array(z.object({ reactedToMessageId: z.string(), emoji: z.string().nullable(), occurredAt: z.string() })),
  /** Identity changes the provider reported (old and new number or user id). */
  identityChanges: z.array(
    z.object({
      change: z.string(),
      previousPhoneNumber: z.string().nullable(),
      previousUserId: z.string().nullable(),
      newPhoneNumber: z.string().nullable(),
      newUserId: z.string().nullable(),
      occurredAt: z.string(),
    }),
  ),
  webhookEvents: z.array(z.object({ id: z.string(), topic: z.string(), receivedAt: z.string() })),
  /** Inbound-webhook requests that named the contact (runs store no payload, so this is what there is). */
  inboundWebhookRuns: z.array(
    z.object({ id: z.string(), inboundWebhookId: z.string(), status: z.string(), messageId: z.string().nullable(), receivedAt: z.string() }),
  ),
});
export type GdprExport = z.infer<typeof gdprExportView>;

export const contactIdInput = z.object({ id: safeString().min(1).max(64) });

export async function exportContactData(deps: AppDeps, scope: Scope, contactId: string): Promise<GdprExport> {
  const ws = scope.workspaceId;
  const contact = await getContact(deps.db, ws, contactId);
  if (!contact) throw new AppError('not_found', { message: 'contact not found' });
  const now = deps.clock.now();
  const conversations = await listContactConversations(deps.db, ws, contactId);
  const [windows, messages, statuses, versions, reactions, identityChanges, envelopes, inboundRuns] = await Promise.all([
    listConversationWindows(
      deps.db,
      ws,
      conversations.map((c) => c.id),
    ),
    listContactMessages(deps.db, ws, contactId),
    listContactStatuses(deps.db, ws, contactId),
    listContactRevisions(deps.db, ws, contactId),
    listContactReactions(deps.db, ws, contactId),
    listContactIdentityChanges(deps.db, ws, contactId),
    contact.anonymizedAt ? Promise.resolve([]) : findEnvelopesNamingContact(deps.db, ws, contact),
    listContactInboundRuns(deps.db, ws, contactId),
  ]);
  const doc: GdprExport = {
    version: GDPR_EXPORT_VERSION,
    exportedAt: now.toISOString(),
    contact: {
      ...toContactView(contact),
      profileName: contact.profileName,
      subscriberStatusAt: isoOrNull(contact.subscriberStatusAt),
      subscriberStatusSource: contact.subscriberStatusSource,
      lastInboundAt: isoOrNull(contact.lastInboundAt),
      identityChangedAt: isoOrNull(contact.identityChangedAt),
      anonymizedAt: isoOrNull(contact.anonymizedAt),
      createdAt: contact.createdAt.toISOString(),
      updatedAt: contact.updatedAt.toISOString(),
    },
    conversations: conversations.map((c) => ({
      ...toConversationView(c, now),
      providerWindows: windows
        .filter((w) => w.conversationId === c.id)
        .map((w) => ({
          providerConversationId: w.providerConversationId,
          originType: w.originType,
          openedAt: w.openedAt.toISOString(),
          expiresAt: isoOrNull(w.expiresAt),
          billable: w.billable,
          pricingModel: w.pricingModel,
          pricingCategory: w.pricingCategory,
        })),
    })),
    // Reactions to the contact's messages are the contact's own (only the customer's
    // reactions reach us), so the contact's reactions fetched above cover them.
    messages: messages.reverse().map((m) => ({ ...toMessageView(m, reactions, versions), payload: m.payload })),
    deliveryHistory: statuses.map((s) => ({
      providerMessageId: s.providerMessageId,
      status: s.status,
      occurredAt: s.occurredAt.toISOString(),
      errorCode: s.errorCode,
      errorTitle: s.errorTitle,
      errorDetails: s.errorDetails,
      providerConversationId: s.providerConversationId,
      pricingCategory: s.pricingCategory,
    })),
    messageVersions: versions.map((v) => ({
      messageProviderId: v.messageProviderId,
      kind: v.kind,
      providerMessageId: v.providerMessageId,
      occurredAt: v.occurredAt.toISOString(),
      type: v.type,
      content: v.content as Record<string, unknown> | null,
      text: v.text,
    })),
    reactions: reactions.map((r) => ({ reactedToMessageId: r.reactedToMessageId, emoji: r.emoji, occurredAt: r.occurredAt.toISOString() })),
    identityChanges: identityChanges.map((c) => ({
      change: c.change,
      previousPhoneNumber: c.previousPhoneNumber,
      previousUserId: c.previousUserId,
      newPhoneNumber: c.newPhoneNumber,
      newUserId: c.newUserId,
      occurredAt: c.occurredAt.toISOString(),
    })),
    webhookEvents: envelopes.map((e) => ({ id: e.id, topic: e.topic, receivedAt: e.receivedAt.toISOString() })),
    inboundWebhookRuns: inboundRuns.map((r) => ({
      id: r.id,
      inboundWebhookId: r.inboundWebhookId,
      status: r.status,
      messageId: r.messageId,
      receivedAt: r.receivedAt.toISOString(),
    })),
  };
  await writeAuditLog(deps.db, ws, {
    action: 'gdpr.export',
    actorId: scope.actorId,
    targetId: contactId,
    details: {
      version: GDPR_EXPORT_VERSION,
      messages: doc.messages.length,
      deliveryHistory: doc.deliveryHistory.length,
      webhookEvents: doc.webhookEvents.length,
      inboundWebhookRuns: doc.inboundWebhookRuns.length,
    },
  });
  return doc;
}

export const gdprEraseView = z.object({
  ok: z.literal(true),
  contactId: z.string(),
  alreadyErased: z.boolean(),
  erased: z.object({ messages: z.number(), webhookEvents: z.number() }),
});

/**
 * Erasure by anonymization in place, in one transaction with its audit entry: the phone
 * number becomes a random `anon_` token, user id, username, names, email and external id are
 * nulled, message content (with every edit version and the contact's reactions) is removed,
 * recorded identity changes are deleted, and the raw bodies of envelopes naming the number or
 * the user id are redacted. Ids, statuses,
 * timestamps and delivery history stay, so counts and aggregates survive. Repeating it is
 * harmless.
 */
export async function eraseContactData(deps: AppDeps, scope: Scope, contactId: string): Promise<z.infer<typeof gdprEraseView>> {
  const ws = scope.workspaceId;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const contact = await getContact(tx, ws, contactId);
    if (!contact) throw new AppError('not_found', { message: 'contact not found' });
    const alreadyErased = contact.anonymizedAt !== null;
    const envelopes = alreadyErased ? [] : await findEnvelopesNamingContact(tx, ws, contact);
    const webhookEvents = await redactEnvelopeBodies(
      tx,
      ws,
      envelopes.map((e) => e.id),
      'gdpr_erasure',
      now,
    );
    const messages = await removeContactMessageContent(tx, ws, contactId, now);
    if (!alreadyErased) await anonymizeContactRow(tx, ws, contactId, anonymousPhoneToken(), now);
    const erased = { messages, webhookEvents };
    await writeAuditLog(tx, ws, { action: 'gdpr.erase', actorId: scope.actorId, targetId: contactId, details: { ...erased, alreadyErased } });
    deps.log.info({ workspaceId: ws, contactId, ...erased }, 'contact erased');
    return { ok: true as const, contactId, alreadyErased, erased };
  });
}
