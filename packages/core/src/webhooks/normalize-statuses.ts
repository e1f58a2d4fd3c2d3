import type { ChangeContext } from './change-context';
import { MESSAGE_STATUSES, type ChannelScope, type ConversationUpdatedEvent, type MessageStatus, type MessageStatusEvent, type StatusPricing } from './events';
import { resolveIdentity } from './identity';
import { bool, get, isoFromUnix, providerErrors, record, str, text } from './value-readers';

/** Errors that mean the customer service window is closed for this contact. */
const WINDOW_CLOSED_ERROR_CODES = new Set([131047]);

/**
 * One `statuses[]` item of a `messages` value: sent / delivered / read / played / failed /
 * deleted, with pricing, conversation, callback data, errors and the recipient's identity
 * (phone `recipient_id`, `""` when hidden, and `recipient_user_id`). A status for a message we
 * do not know is still emitted: the effects keep it and join it later.
 * Sources: $D/webhooks/reference/messages/status, $D/business-scoped-user-ids (SOURCES.md).
 */
export function normalizeStatus(ctx: ChangeContext, scope: ChannelScope, contacts: unknown, raw: unknown): void {
  const s = record(raw);
  const messageId = text(get(s, 'id'));
  const occurredAt = isoFromUnix(get(s, 'timestamp'));
  const status = str(get(s, 'status'));
  if (!s || messageId === null || occurredAt === null || status === null) return ctx.skip('invalid_value', messageId);
  if (!(MESSAGE_STATUSES as readonly string[]).includes(status)) return ctx.skip('unknown_status', messageId);
  const recipient = resolveIdentity(contacts, get(s, 'recipient_id'), get(s, 'recipient_user_id'));
  if (!recipient) return ctx.skip('invalid_value', messageId);

  const conversation = get(s, 'conversation');
  const conversationId = text(get(conversation, 'id'));
  const expiresAt = isoFromUnix(get(conversation, 'expiration_timestamp'));
  const originType = str(get(get(conversation, 'origin'), 'type'));
  const errors = providerErrors(get(s, 'errors'));
  const event: MessageStatusEvent = {
    ...scope,
    family: 'message.status',
    providerMessageId: messageId,
    status: status as MessageStatus,
    occurredAt,
    recipient,
    conversation: conversationId === null ? null : { id: conversationId, originType, expiresAt },
    pricing: readPricing(get(s, 'pricing')),
    callbackData: str(get(s, 'biz_opaque_callback_data')),
    errors,
  };
  ctx.emit(event);

  const base = { ...scope, family: 'conversation.updated' as const, contact: recipient, occurredAt };
  // A conversation with an expiry (sent statuses, v23 and older; free entry point windows).
  if (conversationId !== null && expiresAt !== null) {
    const opened: ConversationUpdatedEvent = { ...base, change: 'conversation_opened', conversationId, origin: originType, expiresAt };
    ctx.emit(opened);
  } else if (status === 'failed' && errors.some((e) => WINDOW_CLOSED_ERROR_CODES.has(e.code))) {
    ctx.emit({ ...base, change: 'service_window_closed', conversationId: null, origin: null, expiresAt: null });
  }
}

function readPricing(raw: unknown): StatusPricing | null {
  if (!record(raw)) return null;
  return {
    billable: bool(get(raw, 'billable')),
    model: str(get(raw, 'pricing_model')),
    category: str(get(raw, 'category')),
    type: str(get(raw, 'type')),
  };
}
