import { z } from 'zod';
import { e164Schema, mediaContentSchema, PUBLIC_OUTBOUND_STATUSES, safeString, templateRefSchema, textContentSchema } from '@mos/core';

const contactId = safeString()
  .regex(/^ctr_[0-9a-z]{26}$/, 'a contact id (ctr_…)')
  .describe('The contact to message (instead of `to`).');

/**
 * POST /v1/messages. Exactly one of `to` and `contactId`; exactly the payload key of `type`.
 * A discriminated union on `type` keeps the OpenAPI document honest about which key goes with
 * which type.
 */
const recipient = {
  to: e164Schema.optional().describe('Recipient phone number in E.164 (+ then digits).'),
  contactId: contactId.optional(),
};
export const sendMessageInput = z
  .discriminatedUnion('type', [
    z.strictObject({ ...recipient, type: z.literal('text'), text: textContentSchema }),
    z.strictObject({ ...recipient, type: z.literal('template'), template: templateRefSchema }),
    z.strictObject({ ...recipient, type: z.literal('image'), image: mediaContentSchema }),
    z.strictObject({ ...recipient, type: z.literal('document'), document: mediaContentSchema }),
    z.strictObject({ ...recipient, type: z.literal('audio'), audio: mediaContentSchema }),
    z.strictObject({ ...recipient, type: z.literal('video'), video: mediaContentSchema }),
  ])
  .refine((b) => (b.to === undefined) !== (b.contactId === undefined), { message: 'give exactly one of to and contactId', path: ['to'] })
  .meta({ id: 'SendMessageRequest' });
export type SendMessageInput = z.infer<typeof sendMessageInput>;

export const idempotencyKeySchema = safeString()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .describe('Retries with the same key return the first message and never send twice.');

export const publicStatusSchema = z.enum(PUBLIC_OUTBOUND_STATUSES);

export const acceptedMessageView = z
  .object({
    id: z.string(),
    status: publicStatusSchema,
    to: z.string(),
    type: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'AcceptedMessage' });
export const sendMessageResult = z.object({ message: acceptedMessageView }).meta({ id: 'SendMessageResponse' });

export const statusHistoryEntry = z.object({ status: publicStatusSchema, at: z.string(), code: z.number().int().optional() });
export const sendErrorView = z.object({
  code: z.union([z.number().int(), z.string()]),
  title: z.string(),
  message: z.string().optional(),
  details: z.string().optional(),
});

export const messageDetailView = z
  .object({
    id: z.string(),
    status: publicStatusSchema,
    to: z.string(),
    type: z.string(),
    contactId: z.string(),
    broadcastId: z.string().nullable(),
    providerMessageId: z.string().nullable(),
    error: sendErrorView.optional(),
    attempts: z.number().int(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    statusHistory: z.array(statusHistoryEntry),
  })
  .meta({ id: 'Message' });
export const getMessageResult = z.object({ message: messageDetailView }).meta({ id: 'GetMessageResponse' });
