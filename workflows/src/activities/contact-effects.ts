import { ApplicationFailure } from '@temporalio/common';
import {
  classifyOptKeyword, isDeliveryStatus, toE164,
  type ConversationUpdatedEvent, type InboundMessageEvent, type MessageStatusEvent, type OptKeyword,
} from '@mos/core';
import {
  applySubscriberKeyword, closeServiceWindow, ensureContact, ensureConversation, insertMessage, recordMessageStatus,
  touchConversationInbound, upsertContactFromInbound, upsertProviderWindow, type Db, type DbOrTx,
} from '@mos/db';
import type { Logger } from '@mos/config';
import type { FamilyEffects } from './effects';

export interface ContactEffectsDeps {
  db: Db;
  log: Logger;
}

/** A phone number we cannot store as E.164 can never apply; retrying will not fix it. */
function phoneOf(raw: string, what: string): string {
  const phone = toE164(raw);
  if (!phone) throw ApplicationFailure.create({ type: 'InvalidPhoneNumber', message: `${what} is not a phone number`, nonRetryable: true });
  return phone;
}

/** STOP/START by our keyword list, plus anything the normalizer already flagged as an opt-out. */
function keywordOf(ev: InboundMessageEvent): OptKeyword | null {
  if (ev.type !== 'text') return null;
  return classifyOptKeyword(ev.text) ?? (ev.keyword === 'opt_out' ? 'stop' : null);
}

/**
 * Effects of the contact/conversation/message families. Each family applies in one
 * transaction, and every write is an upsert keyed by provider ids or a monotonic merge, so
 * retries, replays and out-of-order deliveries converge on the same rows. Logs carry ids
 * only: phone numbers and message content are personal data.
 */
export function createContactEffects(deps: ContactEffectsDeps): Pick<FamilyEffects, 'applyInbound' | 'applyStatus' | 'applyConversationUpdate'> {
  const { db, log } = deps;
  return {
    async applyInbound(workspaceId, ev) {
      await db.transaction((tx) => applyInbound(tx, workspaceId, ev, log));
    },
    async applyStatus(workspaceId, ev) {
      await db.transaction((tx) => applyStatus(tx, workspaceId, ev, log));
    },
    async applyConversationUpdate(workspaceId, ev) {
      await db.transaction((tx) => applyConversationUpdate(tx, workspaceId, ev));
    },
  };
}

export async function applyInbound(tx: DbOrTx, workspaceId: string, ev: InboundMessageEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.sentAt);
  const contact = await upsertContactFromInbound(tx, workspaceId, { phoneNumber: phoneOf(ev.from, 'from'), profileName: ev.contactName, at });
  const conversation = await touchConversationInbound(tx, workspaceId, contact.id, at);
  const { message, created } = await insertMessage(tx, workspaceId, {
    conversationId: conversation.id,
    contactId: contact.id,
    direction: 'inbound',
    providerMessageId: ev.providerMessageId,
    type: ev.type,
    // The normalizer puts text, caption or reply title in `text`; split it back by kind.
    body: ev.media ? null : ev.text,
    caption: ev.media ? ev.text : null,
    mediaId: ev.media?.id ?? null,
    mediaMimeType: ev.media?.mimeType ?? null,
    contextMessageId: ev.inReplyToMessageId,
    payload: ev.reply ? { reply: { kind: ev.reply.kind, id: ev.reply.id } } : null,
    sentAt: at,
  });
  const keyword = keywordOf(ev);
  if (keyword) {
    const changed = await applySubscriberKeyword(tx, workspaceId, contact.id, keyword, at);
    log?.info({ workspaceId, contactId: contact.id, messageId: message.id, keyword, changed: Boolean(changed) }, 'subscriber keyword');
  }
  log?.debug({ workspaceId, contactId: contact.id, messageId: message.id, created }, 'inbound message applied');
}

export async function applyStatus(tx: DbOrTx, workspaceId: string, ev: MessageStatusEvent, log?: Logger): Promise<void> {
  if (!isDeliveryStatus(ev.status)) {
    // `deleted` (the contact deleted the message) is not a delivery state.
    log?.debug({ workspaceId, status: ev.status }, 'status ignored');
    return;
  }
  const at = new Date(ev.occurredAt);
  const contact = await ensureContact(tx, workspaceId, phoneOf(ev.recipient, 'recipient_id'));
  const error = ev.errors[0];
  await recordMessageStatus(tx, workspaceId, {
    providerMessageId: ev.providerMessageId,
    status: ev.status,
    occurredAt: at,
    contactId: contact.id,
    errorCode: error?.code ?? null,
    errorTitle: error?.title ?? null,
    errorDetails: error?.details ?? null,
    providerConversationId: ev.conversationId,
    pricingCategory: ev.pricing?.category ?? null,
  });
  if (ev.conversationId) {
    const conversation = await ensureConversation(tx, workspaceId, contact.id);
    await upsertProviderWindow(tx, workspaceId, {
      conversationId: conversation.id,
      providerConversationId: ev.conversationId,
      billable: ev.pricing?.billable ?? null,
      pricingModel: ev.pricing?.model ?? null,
      pricingCategory: ev.pricing?.category ?? null,
      at,
    });
  }
}

export async function applyConversationUpdate(tx: DbOrTx, workspaceId: string, ev: ConversationUpdatedEvent): Promise<void> {
  const at = new Date(ev.occurredAt);
  const contact = await ensureContact(tx, workspaceId, phoneOf(ev.contact, 'contact'));
  switch (ev.change) {
    case 'service_window_opened':
      // Same upsert as the inbound message's: applying both (in any order) converges.
      await touchConversationInbound(tx, workspaceId, contact.id, at);
      return;
    case 'conversation_opened': {
      if (!ev.conversationId) return;
      const conversation = await ensureConversation(tx, workspaceId, contact.id);
      await upsertProviderWindow(tx, workspaceId, {
        conversationId: conversation.id,
        providerConversationId: ev.conversationId,
        originType: ev.origin,
        expiresAt: ev.expiresAt ? new Date(ev.expiresAt) : null,
        at,
      });
      return;
    }
    case 'service_window_closed': {
      const conversation = await ensureConversation(tx, workspaceId, contact.id);
      await closeServiceWindow(tx, workspaceId, conversation.id, at);
      return;
    }
  }
}
