import { SERVICE_WINDOW_MS } from '../provider-constraints';
import type { ConversationUpdatedEvent, InboundMessageEvent, MessageReactionEvent, NormalizedEvent } from './events';

/**
 * Whether an event is a new user message that opens (or extends) the customer service window.
 * The provider: "When a WhatsApp user messages you or calls you, a 24-hour timer called a
 * customer service window starts. If the user messages or calls you again before the timer
 * expires, the timer resets to 24 hours."
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/send-messages)
 *
 * So: every inbound message, of any type, including `unsupported` (the user did message us;
 * only the provider could not deliver the content) except an undelivered edit (below), and a reaction that adds an emoji (the
 * user sent it, it arrives as a message). Not a reaction removal, an edit or a revoke (they
 * change an earlier message rather than send one), a system notice (the provider speaks,
 * not the user), an errors-only value or a status (nothing from the user). The provider's
 * page does not single these out; this reads "messages you" as "sends a new message".
 *
 * An edit reaches Cloud API numbers as `unsupported` with `unsupported.type: "edit"` (only
 * Coexistence numbers get `type: edit`; $D/webhooks/reference/messages/unsupported and
 * docs/provider-reference/SOURCES.md). It is still an edit, so it does not open the window either: issue 9 ("a reaction
 * removal or an edit must not silently reopen it unless the provider says so"), and the
 * provider says nothing of the kind. It stays a `message.inbound` (the content is kept).
 */
export function opensServiceWindow(event: NormalizedEvent): event is InboundMessageEvent | MessageReactionEvent {
  if (event.family === 'message.inbound') return !isUndeliveredEdit(event);
  if (event.family === 'message.reaction') return event.emoji !== null;
  return false;
}

function isUndeliveredEdit(event: InboundMessageEvent): boolean {
  return event.content.kind === 'unsupported' && event.content.unsupportedType === 'edit';
}

/** The `service_window_opened` family for a window-opening event: 24 h from when the user sent it. */
export function serviceWindowOpened(event: InboundMessageEvent | MessageReactionEvent): ConversationUpdatedEvent {
  const at = event.family === 'message.inbound' ? event.sentAt : event.occurredAt;
  return {
    accountId: event.accountId,
    phoneNumberId: event.phoneNumberId,
    displayPhoneNumber: event.displayPhoneNumber,
    family: 'conversation.updated',
    contact: event.contact,
    change: 'service_window_opened',
    conversationId: null,
    origin: null,
    occurredAt: at,
    expiresAt: new Date(Date.parse(at) + SERVICE_WINDOW_MS).toISOString(),
  };
}
