import type { SkipReason } from './change-context';
import type { ChannelScope, ContactChangedEvent, ContactIdentity, MessageEditedEvent, MessageReactionEvent, MessageRevokedEvent } from './events';
import { providerPhone, providerUserId } from './identity';
import { readContent } from './normalize-content';
import { get, record, str, text, type JsonRecord } from './value-readers';

/**
 * Messages that change something rather than say something new: reactions, edits, revokes
 * and system notices. None is a `message.inbound`. Each returns its family, or the reason it
 * cannot be applied.
 */
export interface MessageItem {
  scope: ChannelScope;
  messageId: string;
  at: string;
  contact: ContactIdentity;
  message: JsonRecord;
}

/**
 * `type: reaction`. The provider removes a reaction by omitting `emoji` (its published example)
 * or sending it empty: both are `emoji: null`. Source: $D/webhooks/reference/messages/reaction.
 */
export function reactionEvent(item: MessageItem): MessageReactionEvent | SkipReason {
  const reaction = get(item.message, 'reaction');
  const reactedTo = text(get(reaction, 'message_id'));
  if (reactedTo === null) return 'invalid_value';
  return {
    ...item.scope,
    family: 'message.reaction',
    providerMessageId: item.messageId,
    contact: item.contact,
    reactedToMessageId: reactedTo,
    emoji: text(get(reaction, 'emoji')),
    occurredAt: item.at,
  };
}

/**
 * `type: edit` (numbers also on the provider's business app): `edit.message` is the new
 * content in the inbound shape, read by the same parser. Source: $D/webhooks/reference/messages/edit.
 */
export function editedEvent(item: MessageItem): MessageEditedEvent | SkipReason {
  const edit = get(item.message, 'edit');
  const original = text(get(edit, 'original_message_id'));
  const replacement = record(get(edit, 'message'));
  const type = text(get(replacement, 'type'));
  if (original === null || replacement === null || type === null) return 'invalid_value';
  const read = readContent(type, replacement);
  return {
    ...item.scope,
    family: 'message.edited',
    providerMessageId: item.messageId,
    originalMessageId: original,
    contact: item.contact,
    editedAt: item.at,
    type,
    content: read.content,
    text: read.text,
  };
}

/** `type: revoke`: the user deleted a message. Source: $D/webhooks/reference/messages/revoke. */
export function revokedEvent(item: MessageItem): MessageRevokedEvent | SkipReason {
  const original = text(get(get(item.message, 'revoke'), 'original_message_id'));
  if (original === null) return 'invalid_value';
  return {
    ...item.scope,
    family: 'message.revoked',
    providerMessageId: item.messageId,
    originalMessageId: original,
    contact: item.contact,
    revokedAt: item.at,
  };
}

/**
 * `system.type` -> the identity change it announces. Current names from
 * $D/webhooks/reference/messages/system (`user_changed_number`) and $D/business-scoped-user-ids
 * (`user_changed_user_id`: `system.user_id` is the new user id, `system.wa_id` the phone or
 * `""`); older names from the provider's former webhook components page
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components:
 * `customer_changed_number`, `customer_identity_changed` with `identity` and `customer`).
 * `user_identity_changed` is on none of the provider's Cloud API pages read for issue 9
 * (docs/provider-reference/SOURCES.md); it is a system type of the provider's former
 * On-Premises API (seen in a client library's list of that API's types, not on a provider page)
 * and names the same security-identity change, so it maps the same way.
 */
const SYSTEM_CHANGES: ReadonlyMap<string, ContactChangedEvent['change']> = new Map([
  ['user_changed_number', 'number_changed'],
  ['customer_changed_number', 'number_changed'],
  ['user_changed_user_id', 'user_id_changed'],
  ['customer_identity_changed', 'identity_changed'],
  ['user_identity_changed', 'identity_changed'],
]);

export function systemEvent(item: MessageItem): ContactChangedEvent | SkipReason {
  const system = get(item.message, 'system');
  const change = SYSTEM_CHANGES.get(str(get(system, 'type')) ?? '');
  if (change === undefined) return 'unsupported_system_type';
  // `new_wa_id` is the pre-v12 name of `wa_id`. Only a usable number or user id counts (identity.ts).
  const newWaId = providerPhone(get(system, 'wa_id')) ?? providerPhone(get(system, 'new_wa_id'));
  const newUserId = providerUserId(get(system, 'user_id'));
  if (change === 'number_changed' && newWaId === null) return 'invalid_value';
  if (change === 'user_id_changed' && newUserId === null) return 'invalid_value';
  return {
    ...item.scope,
    family: 'contact.changed',
    providerMessageId: item.messageId,
    change,
    contact: item.contact,
    newWaId: change === 'identity_changed' ? null : newWaId,
    newUserId: change === 'identity_changed' ? null : newUserId,
    occurredAt: item.at,
  };
}
