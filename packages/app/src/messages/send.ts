import type { z } from 'zod';
import { AppError, serviceWindowOpen, sha256Hex, type OutboundContent } from '@mos/core';
import {
  findContactBy,
  findOutboundByIdempotencyKey,
  getContact,
  getConversationOfContact,
  getWorkspace,
  insertOutboundMessage,
  resolveContact,
  type ContactRow,
  type DbOrTx,
  type OutboundMessageRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { requireApprovedTemplate } from './approved-template';
import { wakeGovernor } from './governor';
import type { SendMessageInput, sendMessageResult } from './schemas';
import { toAcceptedView } from './views';

export interface SendMessageOptions {
  idempotencyKey?: string;
}

type Accepted = z.infer<typeof sendMessageResult> & { replayed: boolean };

/** The stored content of a request: exactly its type's payload. */
export function contentOf(input: SendMessageInput): OutboundContent {
  switch (input.type) {
    case 'text':
      return { kind: 'text', text: input.text };
    case 'template':
      return { kind: 'template', template: input.template };
    case 'image':
      return { kind: 'image', media: input.image };
    case 'document':
      return { kind: 'document', media: input.document };
    case 'audio':
      return { kind: 'audio', media: input.audio };
    case 'video':
      return { kind: 'video', media: input.video };
  }
}

/** Key order does not make two requests different. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * POST /v1/messages (and every other sender): checks what the provider would refuse, persists
 * the message `queued`, and wakes the number's governor. Nothing is sent here. With an
 * idempotency key, a repeat returns the first message (`replayed`), and the key with another
 * body is 409 `idempotency_key_reused`.
 */
export async function sendMessage(deps: AppDeps, scope: Scope, input: SendMessageInput, opts: SendMessageOptions = {}): Promise<Accepted> {
  const queued = await deps.db.transaction((tx) => enqueueMessage(deps, tx, scope, input, opts));
  if (queued.created) await wakeGovernor(deps, scope.workspaceId, queued.row.phoneNumberId);
  return { message: toAcceptedView(queued.row), replayed: !queued.created };
}

export interface QueuedMessage {
  row: OutboundMessageRow;
  /** False for an idempotent repeat: the governor needs no wake. */
  created: boolean;
}

/**
 * sendMessage's checks and insert inside the caller's transaction, for senders that record
 * something else atomically with the message (an inbound-webhook run). The caller wakes the
 * governor (`wakeGovernor`) once its transaction has committed, when `created`.
 */
export async function enqueueMessage(deps: AppDeps, tx: DbOrTx, scope: Scope, input: SendMessageInput, opts: SendMessageOptions = {}): Promise<QueuedMessage> {
  const ws = scope.workspaceId;
  const requestHash = sha256Hex(canonical(input));
  const key = opts.idempotencyKey;
  if (key) {
    const earlier = await findOutboundByIdempotencyKey(tx, ws, key);
    if (earlier) return { row: replay(earlier, requestHash), created: false };
  }
  const workspace = await getWorkspace(tx, ws);
  if (!workspace?.phoneNumberId) throw new AppError('no_phone_number', { message: 'The workspace has no sending phone number configured' });
  const phoneNumberId = workspace.phoneNumberId;
  const content = contentOf(input);
  if (content.kind === 'template') await requireApprovedTemplate(tx, ws, content.template);

  const now = deps.clock.now();
  const contact = await recipientOf(tx, ws, input, content, now);
  await requireSendable(tx, ws, contact, content, now);
  const { row, created } = await insertOutboundMessage(
    tx,
    ws,
    { contactId: contact.id, phoneNumberId, toPhone: contact.phoneNumber!, content, idempotencyKey: key ?? null, requestHash: key ? requestHash : null },
    now,
  );
  return { row: created ? row : replay(row, requestHash), created };
}

function replay(row: OutboundMessageRow, requestHash: string): OutboundMessageRow {
  if (row.requestHash !== requestHash) {
    throw new AppError('idempotency_key_reused', { message: 'This Idempotency-Key was used with a different request body' });
  }
  return row;
}

/**
 * The contact by id, or by phone number. A number we do not know yet becomes a contact for a
 * template (the provider allows starting a conversation with one); free-form content to an
 * unknown number can only be refused (no window), so nothing is created for it.
 */
async function recipientOf(tx: DbOrTx, ws: string, input: SendMessageInput, content: OutboundContent, now: Date): Promise<ContactRow> {
  if (input.contactId) {
    const c = await getContact(tx, ws, input.contactId);
    if (!c) throw new AppError('contact_not_found', { message: 'No contact with this id in the workspace' });
    return c;
  }
  const phone = input.to!;
  const known = await findContactBy(tx, ws, { phoneNumber: phone });
  if (known) return known;
  if (content.kind !== 'template') throw new AppError('outside_service_window', { message: 'The contact has never messaged this number: send a template' });
  return resolveContact(tx, ws, { phoneNumber: phone, userId: null }, { at: now });
}

async function requireSendable(tx: DbOrTx, ws: string, contact: ContactRow, content: OutboundContent, now: Date): Promise<void> {
  if (contact.anonymizedAt || !contact.phoneNumber) throw new AppError('contact_not_found', { message: 'The contact was erased or has no phone number' });
  if (contact.subscriberStatus !== 'subscribed') throw new AppError('contact_unsubscribed', { message: `The contact is ${contact.subscriberStatus}` });
  if (content.kind === 'template') return;
  const conversation = await getConversationOfContact(tx, ws, contact.id);
  if (!serviceWindowOpen(conversation, now)) {
    throw new AppError('outside_service_window', {
      message: 'The contact has not messaged this number in the last 24 hours: send a template',
      meta: { windowExpiredAt: conversation?.windowExpiresAt?.toISOString() ?? null },
    });
  }
}
