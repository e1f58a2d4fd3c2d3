import { z } from 'zod';
import { safeString } from '../text';

/** What the v1 surface can send. */
export const OUTBOUND_TYPES = ['text', 'template', 'image', 'document', 'audio', 'video'] as const;
export type OutboundType = (typeof OUTBOUND_TYPES)[number];
export const MEDIA_TYPES = ['image', 'document', 'audio', 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * Stored statuses. `sending` is ours (a provider call is in flight) and reads as `queued`
 * outside; `skipped` is a message we decided not to send (contact unsubscribed before its
 * turn, broadcast cancelled).
 */
export const OUTBOUND_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];
/** What callers see. */
export const PUBLIC_OUTBOUND_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type PublicOutboundStatus = (typeof PUBLIC_OUTBOUND_STATUSES)[number];
export const publicStatus = (s: OutboundStatus): PublicOutboundStatus => (s === 'sending' ? 'queued' : s);

export interface OutboundStatusEntry {
  status: PublicOutboundStatus;
  at: string;
  code?: number;
}

/** Why a message failed or was skipped: a provider error verbatim, or one of ours. */
export interface SendError {
  code: number | string;
  title: string;
  message?: string;
  details?: string;
}

const e164 = safeString().regex(/^\+[1-9]\d{6,14}$/, 'must be E.164: + then 7 to 15 digits');
const url = safeString()
  .max(2048)
  .refine((s) => /^https?:\/\//i.test(s), 'must be an http(s) URL')
  .pipe(z.url());

export const textContentSchema = z.strictObject({ body: safeString().min(1).max(4096) });
export const mediaContentSchema = z.strictObject({
  link: url,
  caption: safeString().max(1024).optional(),
  filename: safeString().max(240).optional(),
});
export const templateHeaderParamSchema = z.strictObject({
  type: z.enum(['text', 'image', 'document', 'video']),
  link: url.optional(),
  text: safeString().min(1).max(60).optional(),
  /** A document header's file name as the recipient sees it. */
  filename: safeString().min(1).max(240).optional(),
});
export const templateParametersSchema = z.strictObject({
  body: z.array(safeString().min(1).max(1024)).max(100).optional(),
  header: templateHeaderParamSchema.optional(),
});
export const templateRefSchema = z.strictObject({
  name: safeString()
    .min(1)
    .max(512)
    .regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and underscores'),
  language: safeString()
    .min(2)
    .max(15)
    .regex(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, 'a language code such as en or en_US'),
  parameters: templateParametersSchema.optional(),
});
export type TemplateRef = z.infer<typeof templateRefSchema>;

/** The stored content: exactly one payload, keyed by kind. */
export type OutboundContent =
  | { kind: 'text'; text: z.infer<typeof textContentSchema> }
  | { kind: 'template'; template: TemplateRef }
  | { kind: MediaType; media: z.infer<typeof mediaContentSchema> };

/** Free-form content needs the 24 h window; a template does not. */
export const needsServiceWindow = (c: OutboundContent): boolean => c.kind !== 'template';

/**
 * The provider's `POST /{phone-number-id}/messages` body for a stored message.
 * `biz_opaque_callback_data` carries our message id: every status webhook echoes it, which is
 * how a send whose answer was lost (timeout, worker killed) is matched to its provider id.
 */
export interface ProviderSendBody {
  to: string;
  type: OutboundType;
  biz_opaque_callback_data: string;
  [payload: string]: unknown;
}

export function providerSendBody(messageId: string, to: string, c: OutboundContent): ProviderSendBody {
  const base = { to: to.replace(/^\+/, ''), type: c.kind, biz_opaque_callback_data: messageId };
  switch (c.kind) {
    case 'text':
      return { ...base, text: { preview_url: false, body: c.text.body } };
    case 'template':
      return { ...base, template: providerTemplate(c.template) };
    default:
      return {
        ...base,
        [c.kind]: { link: c.media.link, ...(c.media.caption ? { caption: c.media.caption } : {}), ...(c.media.filename ? { filename: c.media.filename } : {}) },
      };
  }
}

function providerTemplate(t: TemplateRef): Record<string, unknown> {
  const components: Record<string, unknown>[] = [];
  const h = t.parameters?.header;
  if (h) {
    const media = { link: h.link ?? '', ...(h.type === 'document' && h.filename ? { filename: h.filename } : {}) };
    const param = h.type === 'text' ? { type: 'text', text: h.text ?? '' } : { type: h.type, [h.type]: media };
    components.push({ type: 'header', parameters: [param] });
  }
  const body = t.parameters?.body;
  if (body && body.length > 0) components.push({ type: 'body', parameters: body.map((text) => ({ type: 'text', text })) });
  return { name: t.name, language: { code: t.language }, ...(components.length ? { components } : {}) };
}

export { e164 as e164Schema };
