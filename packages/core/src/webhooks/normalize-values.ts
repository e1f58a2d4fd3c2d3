import { z } from 'zod';

/**
 * zod shapes of the `value` of each change field the normalizer understands. The envelope
 * schema (envelope.ts) validates the outer `object/entry/changes` frame; these validate the
 * per-field payloads, loosely (`looseObject`) because the provider adds fields without notice.
 */

/** The largest instant a JS Date holds, in seconds: a larger timestamp would throw RangeError. */
const MAX_UNIX_SECONDS = 8_640_000_000_000;
const unixSeconds = z
  .union([z.string().regex(/^\d{1,16}$/), z.number().int().nonnegative()])
  .refine((v) => Number(v) <= MAX_UNIX_SECONDS, 'timestamp out of range');

export const providerErrorSchema = z.looseObject({
  code: z.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});

const metadataSchema = z.looseObject({
  display_phone_number: z.string().optional(),
  phone_number_id: z.string().optional(),
});

const inboundMessageSchema = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: unixSeconds,
  type: z.string().min(1),
  context: z.looseObject({ from: z.string().optional(), id: z.string().optional() }).optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
    })
    .optional(),
  button: z.looseObject({ payload: z.string().optional(), text: z.string().optional() }).optional(),
});

/** Media objects share one shape across image, video, audio, document and sticker. */
export const mediaSchema = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const;

const statusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().min(1),
  timestamp: unixSeconds,
  recipient_id: z.string().min(1),
  conversation: z
    .looseObject({
      id: z.string(),
      expiration_timestamp: unixSeconds.optional(),
      origin: z.looseObject({ type: z.string() }).optional(),
    })
    .optional(),
  pricing: z
    .looseObject({ billable: z.boolean().optional(), pricing_model: z.string().optional(), category: z.string().optional() })
    .optional(),
  errors: z.array(providerErrorSchema).optional(),
});

export const messagesValueSchema = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: metadataSchema.optional(),
  contacts: z.array(z.looseObject({ wa_id: z.string(), profile: z.looseObject({ name: z.string().optional() }).optional() })).optional(),
  messages: z.array(inboundMessageSchema).optional(),
  statuses: z.array(statusSchema).optional(),
  errors: z.array(providerErrorSchema).optional(),
});

export const templateStatusValueSchema = z.looseObject({
  event: z.string().min(1),
  message_template_id: z.union([z.number().int(), z.string().min(1)]),
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
  message_template_category: z.string().optional(),
  reason: z.string().nullable().optional(),
  other_info: z.looseObject({ title: z.string().optional(), description: z.string().optional() }).optional(),
});

export type MessagesValue = z.infer<typeof messagesValueSchema>;
export type InboundMessageValue = z.infer<typeof inboundMessageSchema>;
export type StatusValue = z.infer<typeof statusSchema>;
export type TemplateStatusValue = z.infer<typeof templateStatusValueSchema>;
export type ProviderErrorValue = z.infer<typeof providerErrorSchema>;

/** Provider timestamps are unix seconds (as strings); families carry ISO 8601 UTC. */
export function isoFromUnix(ts: string | number): string {
  return new Date(Number(ts) * 1000).toISOString();
}
