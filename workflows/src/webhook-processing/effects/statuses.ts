import { isDeliveryStatus, type MessageStatusEvent } from '@mos/core';
import { applyOutboundStatus, ensureConversation, recordMessageStatus, resolveContact, upsertProviderWindow, type DbOrTx } from '@mos/db';
import type { Logger } from '@mos/config';
import { identityOf } from './contact-identity';

/**
 * `message.status`: appended to the delivery history (a duplicate is a no-op) with its
 * pricing and our callback data, folded into the message's current status (sent < delivered
 * < read < played; failure apart), and kept under the provider id when the message is not
 * stored yet. The recipient (by phone number or user id) becomes a contact; a `conversation`
 * object merges into the provider window.
 */
export async function applyStatus(tx: DbOrTx, workspaceId: string, ev: MessageStatusEvent, log?: Logger): Promise<void> {
  if (!isDeliveryStatus(ev.status)) {
    // `deleted` (the contact deleted the message) is not a delivery state.
    log?.debug({ workspaceId, status: ev.status }, 'status ignored');
    return;
  }
  const at = new Date(ev.occurredAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.recipient, 'recipient'), { at });
  const error = ev.errors[0];
  await recordMessageStatus(tx, workspaceId, {
    providerMessageId: ev.providerMessageId,
    status: ev.status,
    occurredAt: at,
    contactId: contact.id,
    errorCode: error?.code ?? null,
    errorTitle: error?.title ?? null,
    errorDetails: error?.details ?? null,
    providerConversationId: ev.conversation?.id ?? null,
    pricingCategory: ev.pricing?.category ?? null,
    pricingBillable: ev.pricing?.billable ?? null,
    pricingModel: ev.pricing?.model ?? null,
    pricingType: ev.pricing?.type ?? null,
    callbackData: ev.callbackData,
  });
  // A message we sent moves forward (a late or repeated status changes nothing); one whose send
  // answer was lost learns its provider id from the callback data we attached.
  if (ev.status !== 'played') {
    await applyOutboundStatus(tx, workspaceId, {
      providerMessageId: ev.providerMessageId,
      callbackData: ev.callbackData,
      status: ev.status,
      at,
      ...(error
        ? {
            error: {
              code: error.code,
              title: error.title ?? error.message ?? 'failed',
              ...(error.message ? { message: error.message } : {}),
              ...(error.details ? { details: error.details } : {}),
            },
          }
        : {}),
    });
  }
  if (ev.conversation) {
    const conversation = await ensureConversation(tx, workspaceId, contact.id);
    await upsertProviderWindow(tx, workspaceId, {
      conversationId: conversation.id,
      providerConversationId: ev.conversation.id,
      originType: ev.conversation.originType,
      expiresAt: ev.conversation.expiresAt ? new Date(ev.conversation.expiresAt) : null,
      billable: ev.pricing?.billable ?? null,
      pricingModel: ev.pricing?.model ?? null,
      pricingCategory: ev.pricing?.category ?? null,
      at,
    });
  }
}
