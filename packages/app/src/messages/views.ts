import { z } from 'zod';
import { AppError, hasPrefix, LIMITS, maskPhoneNumber, PUBLIC_OUTBOUND_STATUSES, pageSchema, publicStatus, safeString, seesPersonalData } from '@mos/core';
import { getOutboundMessage, listOutboundMessages, type OutboundMessageRow } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import type { acceptedMessageView, getMessageResult, messageDetailView } from './schemas';
import { messageDetailView as detailSchema } from './schemas';

export const toAcceptedView = (m: OutboundMessageRow): z.infer<typeof acceptedMessageView> => ({
  id: m.id,
  status: publicStatus(m.status),
  to: m.toPhone,
  type: m.type,
  createdAt: m.createdAt.toISOString(),
});

export const toMessageDetail = (m: OutboundMessageRow): z.infer<typeof messageDetailView> => ({
  id: m.id,
  status: publicStatus(m.status),
  to: m.toPhone,
  type: m.type,
  contactId: m.contactId,
  broadcastId: m.broadcastId,
  providerMessageId: m.providerMessageId,
  ...(m.error && (m.status === 'failed' || m.status === 'skipped') ? { error: m.error } : {}),
  attempts: m.attempts,
  createdAt: m.createdAt.toISOString(),
  sentAt: m.sentAt?.toISOString() ?? null,
  statusHistory: m.statusHistory,
});

/** Viewers see the recipient masked, as they see contacts (docs/security.md). */
const forScope = (scope: Scope, m: z.infer<typeof messageDetailView>) => (seesPersonalData(scope.role) ? m : { ...m, to: maskPhoneNumber(m.to) });

/** GET /v1/messages/{id}: 404 `message_not_found` for an id of another workspace too. */
export async function getMessage(deps: AppDeps, scope: Scope, id: string): Promise<z.infer<typeof getMessageResult>> {
  const row = hasPrefix(id, 'message') && id.length <= 64 ? await getOutboundMessage(deps.db, scope.workspaceId, id) : undefined;
  if (!row) throw new AppError('message_not_found');
  return { message: forScope(scope, toMessageDetail(row)) };
}

const idSchema = safeString().min(1).max(64);
export const listMessagesInput = z.object({
  status: z.enum(PUBLIC_OUTBOUND_STATUSES).optional(),
  broadcastId: idSchema.optional(),
  contactId: idSchema.optional(),
  cursor: idSchema.optional(),
  ...pageSchema({ limit: LIMITS.contacts.limit }).shape,
});
export const messageListView = z.object({ messages: z.array(detailSchema), nextCursor: z.string().nullable() });

/** Operators' view (tRPC, /internal): newest first, keyset pages. */
export async function listMessages(deps: AppDeps, scope: Scope, input: z.output<typeof listMessagesInput>): Promise<z.infer<typeof messageListView>> {
  const rows = await listOutboundMessages(deps.db, scope.workspaceId, {
    status: input.status,
    broadcastId: input.broadcastId,
    contactId: input.contactId,
    cursor: input.cursor,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return { messages: page.map((m) => forScope(scope, toMessageDetail(m))), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}
