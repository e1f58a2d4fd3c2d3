import { opensServiceWindow, type MessageEditedEvent, type MessageReactionEvent, type MessageRevokedEvent } from '@mos/core';
import { applyMessageRevisions, recordRevision, resolveContact, touchConversationInbound, upsertReaction, type DbOrTx } from '@mos/db';
import type { Logger } from '@mos/config';
import { identityOf } from './contact-identity';

/**
 * `message.reaction`: not a message (no message row). The contact's current reaction to the
 * message, newest wins, a removal kept as such; the reacted-to message need not be known to
 * us. A reaction that adds an emoji is something the user sent, so it opens or extends the
 * service window (core's `opensServiceWindow`, the same rule as the `service_window_opened`
 * family the normalizer emits beside it, which is a no-op); a removal does not.
 */
export async function applyReaction(tx: DbOrTx, workspaceId: string, ev: MessageReactionEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.occurredAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'from'), { at });
  const row = await upsertReaction(tx, workspaceId, {
    reactedToMessageId: ev.reactedToMessageId,
    contactId: contact.id,
    providerMessageId: ev.providerMessageId,
    emoji: ev.emoji,
    occurredAt: at,
  });
  if (opensServiceWindow(ev)) await touchConversationInbound(tx, workspaceId, contact.id, at);
  log?.debug({ workspaceId, contactId: contact.id, reactionId: row.id, removed: row.emoji === null }, 'reaction applied');
}

/**
 * `message.edited`: the edit is kept as a revision (once per its provider id) and the
 * message's content becomes the newest edit's; the previous versions stay. An edit for a
 * message we do not have yet waits and applies when the message is stored.
 */
export async function applyEdit(tx: DbOrTx, workspaceId: string, ev: MessageEditedEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.editedAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'from'), { at });
  const created = await recordRevision(tx, workspaceId, {
    kind: 'edit',
    providerMessageId: ev.providerMessageId,
    messageProviderId: ev.originalMessageId,
    contactId: contact.id,
    occurredAt: at,
    type: ev.type,
    content: ev.content,
    text: ev.text,
  });
  const message = await applyMessageRevisions(tx, workspaceId, ev.originalMessageId);
  log?.debug({ workspaceId, contactId: contact.id, messageId: message?.id ?? null, created, pending: !message }, 'edit applied');
}

/**
 * `message.revoked`: the customer deleted the message. The row stays (counts, statuses) with
 * `revoked_at` and its content removed like an erasure; a revoke for a message we do not have
 * yet waits and applies when the message is stored.
 */
export async function applyRevoke(tx: DbOrTx, workspaceId: string, ev: MessageRevokedEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.revokedAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'from'), { at });
  const created = await recordRevision(tx, workspaceId, {
    kind: 'revoke',
    providerMessageId: ev.providerMessageId,
    messageProviderId: ev.originalMessageId,
    contactId: contact.id,
    occurredAt: at,
  });
  const message = await applyMessageRevisions(tx, workspaceId, ev.originalMessageId);
  log?.debug({ workspaceId, contactId: contact.id, messageId: message?.id ?? null, created, pending: !message }, 'revoke applied');
}
