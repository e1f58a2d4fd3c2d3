import { z } from 'zod';
import { describeEnvelopeIssues } from './envelope-issues';

/**
 * The provider's webhook envelope and the summary the ingress stores for every request.
 * Pure and shared: the API ingress derives the topic from it, the worker re-parses the
 * stored raw body with the same `parseProviderEnvelope` to normalize it.
 *
 * Schemas are loose (unknown keys are kept): the provider adds fields without notice and
 * an extra field must never turn a real delivery into `invalid_payload`.
 */

export const WEBHOOK_TOPICS = ['messages', 'message_status', 'unknown', 'invalid_json', 'invalid_payload'] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/**
 * The `object` values mos reads: what the real provider sends (`whatsapp_business_account`,
 * every example on its webhook reference pages) and the service interface's generic name.
 */
export const ACCEPTED_ENVELOPE_OBJECTS = ['whatsapp_business_account', 'messaging_business_account'] as const;
export type EnvelopeObject = (typeof ACCEPTED_ENVELOPE_OBJECTS)[number];

/**
 * The frame only: object, entries, changes. Per-field values (`messages`, template status
 * updates, ...) are validated by the worker's normalizer change by change, so one odd change
 * does not discard its siblings; the ingress must not call a delivery `invalid_payload` for
 * something the worker would still process. The worker decodes with this same parser
 * (stored-envelope.ts), so the two can never disagree about what is an envelope.
 */
export const providerChangeSchema = z.looseObject({ field: z.string().min(1), value: z.unknown() });

export const providerEntrySchema = z.looseObject({
  id: z.string().min(1),
  changes: z.array(providerChangeSchema),
});

export const providerEnvelopeSchema = z.looseObject({
  object: z.enum(ACCEPTED_ENVELOPE_OBJECTS),
  entry: z.array(providerEntrySchema),
});

export type ProviderEnvelope = z.infer<typeof providerEnvelopeSchema>;
export type ProviderEntry = z.infer<typeof providerEntrySchema>;
export type ProviderChange = z.infer<typeof providerChangeSchema>;

/** What the response carries (spec) plus the account and phone-number scope we store. */
export interface EnvelopeSummary {
  object: string | null;
  entries: number;
  changeCount: number;
  topic: WebhookTopic;
  messageCount: number;
  statusCount: number;
  accountId: string | null;
  phoneNumberId: string | null;
  displayPhoneNumber: string | null;
}

export type EnvelopeParse =
  | { ok: true; envelope: ProviderEnvelope; summary: EnvelopeSummary }
  | { ok: false; summary: EnvelopeSummary; issues: string[] };

/**
 * The topic rule (docs/webhooks.md): any inbound message anywhere in the envelope makes it
 * `messages`; otherwise any status makes it `message_status`; anything else (template
 * status updates, account updates, a `messages` change carrying only `errors`, an empty
 * entry list) is `unknown`. Precedence, not majority: a mixed envelope is `messages`.
 */
export function topicOf(counts: { messageCount: number; statusCount: number }): WebhookTopic {
  if (counts.messageCount > 0) return 'messages';
  if (counts.statusCount > 0) return 'message_status';
  return 'unknown';
}

export function summarizeEnvelope(envelope: ProviderEnvelope): EnvelopeSummary {
  let changeCount = 0;
  let messageCount = 0;
  let statusCount = 0;
  let phoneNumberId: string | null = null;
  let displayPhoneNumber: string | null = null;
  for (const entry of envelope.entry) {
    for (const change of entry.changes) {
      changeCount++;
      if (change.field !== 'messages' || !isRecord(change.value)) continue;
      const value = change.value;
      messageCount += Array.isArray(value.messages) ? value.messages.length : 0;
      statusCount += Array.isArray(value.statuses) ? value.statuses.length : 0;
      // The first change's business number scopes the event; one envelope is one account.
      const metadata = isRecord(value.metadata) ? value.metadata : {};
      if (phoneNumberId === null && typeof metadata.phone_number_id === 'string') phoneNumberId = metadata.phone_number_id;
      if (displayPhoneNumber === null && typeof metadata.display_phone_number === 'string') displayPhoneNumber = metadata.display_phone_number;
    }
  }
  return {
    object: envelope.object,
    entries: envelope.entry.length,
    changeCount,
    topic: topicOf({ messageCount, statusCount }),
    messageCount,
    statusCount,
    accountId: envelope.entry[0]?.id ?? null,
    phoneNumberId,
    displayPhoneNumber,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function emptySummary(topic: WebhookTopic, object: string | null): EnvelopeSummary {
  return { object, entries: 0, changeCount: 0, topic, messageCount: 0, statusCount: 0, accountId: null, phoneNumberId: null, displayPhoneNumber: null };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses raw request bytes. Not UTF-8 or not JSON -> `invalid_json`; JSON that is not the
 * envelope -> `invalid_payload` (its `object` is still reported when it is a string).
 * Issues are sentences for operators (envelope-issues.ts) naming paths only, never values,
 * except the `object` name, truncated and escaped; they are safe to log and to store.
 */
export function parseProviderEnvelope(raw: Buffer | string): EnvelopeParse {
  let data: unknown;
  try {
    data = JSON.parse(typeof raw === 'string' ? raw : utf8.decode(raw));
  } catch {
    return { ok: false, summary: emptySummary('invalid_json', null), issues: ['the body is not UTF-8 JSON'] };
  }
  const parsed = providerEnvelopeSchema.safeParse(data);
  if (!parsed.success) {
    const object = data && typeof data === 'object' && typeof (data as { object?: unknown }).object === 'string' ? (data as { object: string }).object : null;
    const issues = describeEnvelopeIssues(data, parsed.error.issues);
    return { ok: false, summary: emptySummary('invalid_payload', object), issues };
  }
  return { ok: true, envelope: parsed.data, summary: summarizeEnvelope(parsed.data) };
}

/** The summary fields the ingress response carries (spec), without the stored scope. */
export function publicSummary(s: EnvelopeSummary): Pick<EnvelopeSummary, 'object' | 'entries' | 'changeCount' | 'topic' | 'messageCount' | 'statusCount'> {
  return { object: s.object, entries: s.entries, changeCount: s.changeCount, topic: s.topic, messageCount: s.messageCount, statusCount: s.statusCount };
}
