import { randomUUID } from 'node:crypto';
import { signProviderBody } from '@mos/core';
import type { SimTemplate } from './store';

export interface WebhookTarget {
  url?: string;
  signingSecret?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

/**
 * The `message_template_status_update` envelope, in the shape of the provider's webhook,
 * including its `object` name (`whatsapp_business_account`, as every example on the provider's
 * webhook reference pages; docs/provider-reference/SOURCES.md), so tests see what mos really receives.
 */
export function templateStatusEnvelope(t: SimTemplate, event: string, reason: string, now: Date): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: t.wabaId,
        time: Math.floor(now.getTime() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event,
              message_template_id: Number(t.id),
              message_template_name: t.name,
              message_template_language: t.language,
              message_template_category: t.category,
              reason,
            },
          },
        ],
      },
    ],
  };
}

/**
 * POSTs the envelope to the configured webhook URL, signed over the exact bytes sent
 * (`X-Hub-Signature-256: sha256=<hmac>`), with a fresh `X-Provider-Delivery-Id` unless one is
 * given (a retry of the same delivery keeps its id and bytes, so mos can deduplicate it).
 * Resolves once the receiver answered, so tests can await the delivery.
 */
export async function deliverWebhook(
  target: WebhookTarget,
  envelope: Record<string, unknown> | string,
  options: { deliveryId?: string } = {},
): Promise<{ status: number; deliveryId: string } | null> {
  if (!target.url) return null;
  const raw = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
  const deliveryId = options.deliveryId ?? randomUUID();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-provider-delivery-id': deliveryId };
  if (target.signingSecret) headers['x-hub-signature-256'] = signProviderBody(target.signingSecret, raw);
  const res = await (target.fetch ?? fetch)(target.url, { method: 'POST', headers, body: raw, signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return { status: res.status, deliveryId };
}

export interface MessagesEnvelopeTarget {
  object: string;
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
}

/** A `messages` field change in the shape of the fixtures (status-*.json, inbound-text.json): `value` holds statuses or contacts+messages. */
export function messagesEnvelope(t: MessagesEnvelopeTarget, value: Record<string, unknown>): Record<string, unknown> {
  return {
    object: t.object,
    entry: [
      {
        id: t.wabaId,
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: t.displayPhoneNumber, phone_number_id: t.phoneNumberId }, ...value },
          },
        ],
      },
    ],
  };
}

/** The `value` of an inbound text message from a customer (inbound-text.json). */
export function inboundTextValue(m: { waId: string; name: string; id: string; atMs: number; text: string }): Record<string, unknown> {
  return {
    contacts: [{ profile: { name: m.name }, wa_id: m.waId }],
    messages: [{ from: m.waId, id: m.id, timestamp: String(Math.floor(m.atMs / 1000)), type: 'text', text: { body: m.text } }],
  };
}
