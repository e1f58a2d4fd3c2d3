import { z } from 'zod';
import { AppError } from '@mos/core';
import { getMessage, getMessageResult, idempotencyKeySchema, sendMessage, sendMessageInput, sendMessageResult, type AppDeps } from '@mos/app';
import { apiScopeOf } from './auth';
import { parseOr400, type V1Route } from './route';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const MESSAGE_ID = /^msg_[0-9a-z]{26}$/;

/** Why a valid send can still be refused (422): the contact, its window or the template. */
const SEND_REFUSALS = ['contact_not_found', 'no_phone_number', 'contact_unsubscribed', 'outside_service_window', 'template_not_approved'] as const;

const messageIdParam = z.object({ id: z.string().regex(MESSAGE_ID).describe('A message id (msg_…).') });

/** Absent is fine; present, it must be one printable token (two headers arrive joined by ", " and fail). */
function idempotencyKeyOf(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : parseOr400(idempotencyKeySchema, raw, [IDEMPOTENCY_KEY_HEADER]);
}

export const messageRoutes = (deps: AppDeps): V1Route[] => [
  {
    method: 'post',
    path: '/messages',
    errors: ['validation_failed', 'idempotency_key_reused', ...SEND_REFUSALS],
    doc: {
      operationId: 'sendMessage',
      tags: ['Messages'],
      summary: 'Send a text, media or template message',
      description:
        'Queues the message and answers 202; delivery progress is on GET /v1/messages/{id}. Free-form types need the contact’s 24-hour service window; templates must be approved. ' +
        'With an Idempotency-Key, a retry with the same key and body answers the first message (202, Idempotent-Replayed: true) and never sends twice; the same key with a different body is 409 idempotency_key_reused.',
      requestParams: { header: z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema.optional() }) },
      requestBody: { required: true, content: { 'application/json': { schema: sendMessageInput } } },
      responses: {
        202: {
          description: 'Accepted and queued (or, with Idempotent-Replayed: true, the message an earlier request with this key created)',
          headers: {
            'Idempotent-Replayed': {
              description: 'Present and `true` when this answer replays an earlier request with the same Idempotency-Key.',
              schema: { type: 'string', enum: ['true'] },
            },
          },
          content: { 'application/json': { schema: sendMessageResult } },
        },
      },
    },
    handler: async (req, res) => {
      const scope = apiScopeOf(req);
      const idempotencyKey = idempotencyKeyOf(req.header(IDEMPOTENCY_KEY_HEADER));
      const input = parseOr400(sendMessageInput, req.body);
      const result = await sendMessage(deps, scope, input, idempotencyKey === undefined ? {} : { idempotencyKey });
      if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(202).json({ message: result.message });
    },
  },
  {
    method: 'get',
    path: '/messages/:id',
    errors: ['message_not_found'],
    doc: {
      operationId: 'getMessage',
      tags: ['Messages'],
      summary: 'A sent message, its status and status history',
      requestParams: { path: messageIdParam },
      responses: { 200: { description: 'The message', content: { 'application/json': { schema: getMessageResult } } } },
    },
    handler: async (req, res) => {
      const id = req.params.id;
      // Not an id we could have issued: not found, without asking the database.
      if (typeof id !== 'string' || !MESSAGE_ID.test(id)) throw new AppError('message_not_found');
      res.json(await getMessage(deps, apiScopeOf(req), id));
    },
  },
];
