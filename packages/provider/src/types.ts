import { z } from 'zod';

/**
 * Template creation body (WhatsApp Cloud API `POST /{waba-id}/message_templates`, fields as
 * on the templates overview and time-to-live pages). The client sends it as given: nothing
 * is added or dropped on the way.
 */
export interface CreateTemplateRequest {
  name: string;
  language: string;
  category: string;
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: unknown[];
  /** Delivery time-to-live in seconds; ranges per category (time-to-live page). */
  message_send_ttl_seconds?: number;
}

export const createTemplateResponseSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  category: z.string().optional(),
});
export type CreateTemplateResponse = z.infer<typeof createTemplateResponseSchema>;

/** Template edit body (`POST /{template-id}`): name and language cannot change. */
export interface EditTemplateRequest {
  category?: string;
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: unknown[];
  /** The time-to-live page: the TTL of an existing template is changed the same way. */
  message_send_ttl_seconds?: number;
}

export const editTemplateResponseSchema = z.looseObject({ success: z.boolean() });

export const providerTemplateSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  parameter_format: z.string().optional(),
  components: z.array(z.looseObject({ type: z.string() })).default([]),
  rejected_reason: z.string().optional(),
});
export type ProviderTemplate = z.infer<typeof providerTemplateSchema>;

export const templatePageSchema = z.object({
  data: z.array(providerTemplateSchema),
  paging: z
    .object({
      cursors: z.object({ before: z.string().optional(), after: z.string().optional() }).optional(),
      next: z.string().optional(),
    })
    .optional(),
});
export type TemplatePage = z.infer<typeof templatePageSchema>;

/** Message send body (`POST /{phone-number-id}/messages`); `type` selects the payload key. */
export interface SendMessageRequest {
  messaging_product?: 'whatsapp';
  recipient_type?: 'individual';
  to: string;
  type: 'text' | 'template' | 'image' | 'document' | 'video' | 'audio' | 'interactive';
  [payload: string]: unknown;
}

export const sendMessageResponseSchema = z.looseObject({
  messaging_product: z.string(),
  contacts: z.array(z.looseObject({ input: z.string(), wa_id: z.string() })),
  messages: z.array(z.looseObject({ id: z.string() })).min(1),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;
