import type { ConversationUpdatedEvent } from '@mos/core';
import { closeServiceWindow, ensureConversation, resolveContact, type DbOrTx } from '@mos/db';
import { identityOf } from './contact-identity';

/**
 * `conversation.updated`. `service_window_opened` and `conversation_opened` describe, for the
 * delivery's summary, a change that the family they came with applies itself: the inbound
 * message (or the reaction) opens the service window in its own transaction, and the status
 * records the provider's conversation window. Applying them again here would repeat that work
 * in a second transaction, so they are no-ops. Only `service_window_closed` (a 131047 failure)
 * has no other owner.
 */
export async function applyConversationUpdate(tx: DbOrTx, workspaceId: string, ev: ConversationUpdatedEvent): Promise<void> {
  switch (ev.change) {
    case 'service_window_opened':
    case 'conversation_opened':
      return;
    case 'service_window_closed': {
      const at = new Date(ev.occurredAt);
      const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'contact'), { at });
      const conversation = await ensureConversation(tx, workspaceId, contact.id);
      await closeServiceWindow(tx, workspaceId, conversation.id, at);
      return;
    }
  }
}
