import type { ConversationUpdatedEvent } from '@mos/core';
import { closeServiceWindow, ensureConversation, resolveContact, touchConversationInbound, upsertProviderWindow, type DbOrTx } from '@mos/db';
import { identityOf } from './contact-identity';

/** `conversation.updated`: the service window and the provider's conversation windows. */
export async function applyConversationUpdate(tx: DbOrTx, workspaceId: string, ev: ConversationUpdatedEvent): Promise<void> {
  const at = new Date(ev.occurredAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'contact'), { at });
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
