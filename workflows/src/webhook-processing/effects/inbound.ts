import { opensServiceWindow, type InboundMessageEvent, type MessageEchoEvent } from '@mos/core';
import {
  applySubscriberKeyword,
  contentColumns,
  ensureConversation,
  insertMessage,
  resolveContact,
  touchConversationInbound,
  touchConversationMessage,
  type DbOrTx,
} from '@mos/db';
import type { Logger } from '@mos/config';
import { identityOf } from './contact-identity';

/**
 * `message.inbound`: the sender becomes (or is found as) a contact, the service window opens
 * or extends, the message is stored once with its whole typed content, and an opt-out or
 * opt-in the normalizer recognised (typed text, quick-reply button, interactive reply)
 * applies by the monotonic subscriber rule. This effect owns the window: the
 * `service_window_opened` family emitted beside it is a no-op (conversation-effects.ts), and
 * both follow core's `opensServiceWindow` (an edit the provider delivered as `unsupported`
 * is kept but opens nothing).
 */
export async function applyInbound(tx: DbOrTx, workspaceId: string, ev: InboundMessageEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.sentAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'from'), { at, inbound: true });
  const opens = opensServiceWindow(ev);
  const conversation = opens ? await touchConversationInbound(tx, workspaceId, contact.id, at) : await ensureConversation(tx, workspaceId, contact.id);
  const { message, created } = await insertMessage(tx, workspaceId, {
    conversationId: conversation.id,
    contactId: contact.id,
    direction: 'inbound',
    providerMessageId: ev.providerMessageId,
    type: ev.type,
    ...contentColumns(ev.content, ev.text),
    content: ev.content,
    context: ev.context,
    referral: ev.referral,
    errors: ev.errors.length > 0 ? ev.errors : null,
    contextMessageId: ev.context?.replyToMessageId ?? null,
    sentAt: at,
  });
  if (!opens) await touchConversationMessage(tx, workspaceId, conversation.id, at);
  if (ev.optKeyword) {
    const changed = await applySubscriberKeyword(tx, workspaceId, contact.id, ev.optKeyword, at, 'keyword');
    log?.info({ workspaceId, contactId: contact.id, messageId: message.id, keyword: ev.optKeyword, changed: Boolean(changed) }, 'subscriber keyword');
  }
  log?.debug({ workspaceId, contactId: contact.id, messageId: message.id, created }, 'inbound message applied');
}

/**
 * `message.echo`: a message the business sent from the provider's business app. It is our
 * outbound message to the customer: stored like one sent through mos (statuses join it by
 * provider id), moving the thread's last-message time but never the service window, which
 * only the customer's messages open.
 */
export async function applyEcho(tx: DbOrTx, workspaceId: string, ev: MessageEchoEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.sentAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'to'), { at });
  const conversation = await ensureConversation(tx, workspaceId, contact.id);
  const { message, created } = await insertMessage(tx, workspaceId, {
    conversationId: conversation.id,
    contactId: contact.id,
    direction: 'outbound',
    providerMessageId: ev.providerMessageId,
    type: ev.type,
    ...contentColumns(ev.content, ev.text),
    content: ev.content,
    sentAt: at,
  });
  await touchConversationMessage(tx, workspaceId, conversation.id, at);
  log?.debug({ workspaceId, contactId: contact.id, messageId: message.id, created }, 'echo applied');
}
