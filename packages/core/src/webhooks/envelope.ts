import { envelopeFrameIssues } from './envelope-issues';
import { get, record } from './value-readers';

/**
 * The provider's webhook envelope and the summary the ingress stores for every request.
 * Pure and shared: the API ingress derives the topic from it, and the worker
 * (workflows/src/webhook-processing/activities.ts) re-parses the stored raw body with the same
 * `parseProviderEnvelope` to normalize it, so the two can never disagree about what is an
 * envelope.
 *
 * Only the frame is checked (object, entries, changes; envelope-issues.ts), and unknown keys
 * are kept: the provider adds fields without notice and an extra field must never turn a real
 * delivery into `invalid_payload`. Per-field values (`messages`, template status updates, ...)
 * are read by the worker's normalizer change by change, so one odd change does not discard its
 * siblings; the ingress must not call a delivery `invalid_payload` for something the worker
 * would still process.
 */

export const WEBHOOK_TOPICS = ['messages', 'message_status', 'unknown', 'invalid_json', 'invalid_payload'] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/**
 * The `object` values mos reads: what the real provider sends (`whatsapp_business_account`,
 * every example on its webhook reference pages) and the service interface's generic name.
 */
export const ACCEPTED_ENVELOPE_OBJECTS = ['whatsapp_business_account', 'messaging_business_account'] as const;

export interface ProviderChange {
  field: string;
  value: unknown;
  [key: string]: unknown;
}

export interface ProviderEntry {
  id: string;
  changes: ProviderChange[];
  [key: string]: unknown;
}

export interface ProviderEnvelope {
  object: (typeof ACCEPTED_ENVELOPE_OBJECTS)[number];
  entry: ProviderEntry[];
  [key: string]: unknown;
}

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

export type EnvelopeParse = { ok: true; envelope: ProviderEnvelope; summary: EnvelopeSummary } | { ok: false; summary: EnvelopeSummary; issues: string[] };

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
      const value = record(change.value);
      if (change.field !== 'messages' || !value) continue;
      const messages = get(value, 'messages');
      const statuses = get(value, 'statuses');
      messageCount += Array.isArray(messages) ? messages.length : 0;
      statusCount += Array.isArray(statuses) ? statuses.length : 0;
      // The first change's business number scopes the event; one envelope is one account.
      const metadata = get(value, 'metadata');
      const id = get(metadata, 'phone_number_id');
      const display = get(metadata, 'display_phone_number');
      if (phoneNumberId === null && typeof id === 'string') phoneNumberId = id;
      if (displayPhoneNumber === null && typeof display === 'string') displayPhoneNumber = display;
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

function emptySummary(topic: WebhookTopic, object: string | null): EnvelopeSummary {
  return { object, entries: 0, changeCount: 0, topic, messageCount: 0, statusCount: 0, accountId: null, phoneNumberId: null, displayPhoneNumber: null };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses raw request bytes; never throws. Not UTF-8 or not JSON -> `invalid_json`; JSON that is
 * not the envelope frame -> `invalid_payload` (its `object` is still reported when it is a
 * string). Issues are sentences for operators (envelope-issues.ts, at most ten) naming paths
 * only, never values, except the `object` name, truncated and escaped; they are safe to log and
 * to store.
 */
export function parseProviderEnvelope(raw: Buffer | string): EnvelopeParse {
  let data: unknown;
  try {
    data = JSON.parse(typeof raw === 'string' ? raw : utf8.decode(raw));
  } catch {
    return { ok: false, summary: emptySummary('invalid_json', null), issues: ['the body is not UTF-8 JSON'] };
  }
  const issues = envelopeFrameIssues(data, ACCEPTED_ENVELOPE_OBJECTS);
  if (issues.length > 0) {
    const object = get(data, 'object');
    return { ok: false, summary: emptySummary('invalid_payload', typeof object === 'string' ? object : null), issues };
  }
  // The frame check above is exactly what the type states; unknown keys ride along.
  const envelope = data as ProviderEnvelope;
  return { ok: true, envelope, summary: summarizeEnvelope(envelope) };
}

/** The summary fields the ingress response carries (spec), without the stored scope. */
export function publicSummary(s: EnvelopeSummary): Pick<EnvelopeSummary, 'object' | 'entries' | 'changeCount' | 'topic' | 'messageCount' | 'statusCount'> {
  return { object: s.object, entries: s.entries, changeCount: s.changeCount, topic: s.topic, messageCount: s.messageCount, statusCount: s.statusCount };
}
