import { PROVIDER_CONSTRAINTS } from '../provider-constraints';
import {
  MEDIA_TYPES, isoFromUnix, mediaSchema, messagesValueSchema, templateStatusValueSchema,
  type InboundMessageValue, type MessagesValue, type ProviderErrorValue, type StatusValue,
} from './normalize-values';

/**
 * Pure normalization of a provider envelope into event families. No I/O, no clock: the
 * same envelope always yields the same families, which is what lets the worker retry and
 * replay a delivery safely. Families carry provider ids so effects can upsert by them.
 */

export const EVENT_FAMILIES = ['message.inbound', 'message.status', 'template.updated', 'conversation.updated'] as const;
export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** The outer frame the normalizer walks; any parsed envelope (envelope.ts) fits it. */
export interface NormalizableEnvelope {
  entry: ReadonlyArray<{ id: string; changes: ReadonlyArray<{ field: string; value?: unknown }> }>;
}

export interface ChannelScope {
  accountId: string;
  phoneNumberId: string | null;
  displayPhoneNumber: string | null;
}

export interface ProviderError {
  code: number;
  title: string | null;
  details: string | null;
}

export interface InboundMessageEvent extends ChannelScope {
  family: 'message.inbound';
  providerMessageId: string;
  /** The contact's provider id (their phone number): personal data, never logged. */
  from: string;
  contactName: string | null;
  sentAt: string;
  type: string;
  /** Text body, media caption or the chosen reply's title: message content, never logged. */
  text: string | null;
  media: { kind: string; id: string; mimeType: string | null; sha256: string | null; filename: string | null } | null;
  reply: { kind: string; id: string | null; title: string | null } | null;
  /** Our outbound message this one answers, when the provider says so. */
  inReplyToMessageId: string | null;
  keyword: 'opt_out' | null;
}

export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'failed', 'deleted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface MessageStatusEvent extends ChannelScope {
  family: 'message.status';
  providerMessageId: string;
  status: MessageStatus;
  occurredAt: string;
  recipient: string;
  conversationId: string | null;
  pricing: { billable: boolean | null; model: string | null; category: string | null } | null;
  errors: ProviderError[];
}

export type TemplateStatus = 'approved' | 'rejected' | 'pending' | 'paused' | 'disabled' | 'flagged' | 'other';

export interface TemplateUpdatedEvent {
  family: 'template.updated';
  accountId: string;
  providerTemplateId: string;
  name: string;
  language: string;
  category: string | null;
  /** The provider's event verbatim (APPROVED, REJECTED, ...). */
  event: string;
  status: TemplateStatus;
  reason: string | null;
  detail: string | null;
}

export interface ConversationUpdatedEvent extends ChannelScope {
  family: 'conversation.updated';
  /** The contact's provider id: personal data, never logged. */
  contact: string;
  change: 'service_window_opened' | 'conversation_opened' | 'service_window_closed';
  conversationId: string | null;
  origin: string | null;
  occurredAt: string;
  expiresAt: string | null;
}

export type NormalizedEvent = InboundMessageEvent | MessageStatusEvent | TemplateUpdatedEvent | ConversationUpdatedEvent;

export type SkipReason = 'unsupported_field' | 'provider_errors' | 'invalid_value' | 'unknown_status' | 'empty';

export interface SkippedChange {
  entryId: string;
  field: string;
  reason: SkipReason;
  errorCodes?: number[];
}

export interface NormalizedEnvelope {
  events: NormalizedEvent[];
  skipped: SkippedChange[];
}

const OPT_OUT_KEYWORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT-OUT']);
const SERVICE_WINDOW_MS = PROVIDER_CONSTRAINTS.serviceWindowHours * 3600_000;
/** Errors that mean the customer-service window is closed for this contact. */
const WINDOW_CLOSED_ERROR_CODES = new Set([131047]);

const TEMPLATE_STATUS: Record<string, TemplateStatus> = {
  APPROVED: 'approved',
  REJECTED: 'rejected',
  PENDING: 'pending',
  PAUSED: 'paused',
  DISABLED: 'disabled',
  FLAGGED: 'flagged',
  PENDING_DELETION: 'disabled',
};

export function normalizeEnvelope(envelope: NormalizableEnvelope): NormalizedEnvelope {
  const out: NormalizedEnvelope = { events: [], skipped: [] };
  for (const entry of envelope.entry) {
    for (const change of entry.changes) {
      const skip = (reason: SkipReason, errorCodes?: number[]) =>
        out.skipped.push({ entryId: entry.id, field: change.field, reason, ...(errorCodes ? { errorCodes } : {}) });
      if (change.field === 'messages') normalizeMessages(entry.id, change.value, out.events, skip);
      else if (change.field === 'message_template_status_update') {
        const ev = normalizeTemplateStatus(entry.id, change.value);
        if (ev) out.events.push(ev);
        else skip('invalid_value');
      } else skip('unsupported_field');
    }
  }
  return out;
}

function normalizeMessages(
  accountId: string,
  raw: unknown,
  events: NormalizedEvent[],
  skip: (reason: SkipReason, codes?: number[]) => void,
): void {
  const parsed = messagesValueSchema.safeParse(raw);
  if (!parsed.success) return skip('invalid_value');
  const value = parsed.data;
  const scope: ChannelScope = {
    accountId,
    phoneNumberId: value.metadata?.phone_number_id ?? null,
    displayPhoneNumber: value.metadata?.display_phone_number ?? null,
  };
  const before = events.length;
  for (const m of value.messages ?? []) {
    const inbound = toInbound(scope, value, m);
    events.push(inbound, {
      ...scope,
      family: 'conversation.updated',
      contact: inbound.from,
      change: 'service_window_opened',
      conversationId: null,
      origin: null,
      occurredAt: inbound.sentAt,
      expiresAt: new Date(Date.parse(inbound.sentAt) + SERVICE_WINDOW_MS).toISOString(),
    });
  }
  for (const s of value.statuses ?? []) {
    if (!(MESSAGE_STATUSES as readonly string[]).includes(s.status)) {
      skip('unknown_status');
      continue;
    }
    events.push(toStatus(scope, s), ...conversationFromStatus(scope, s));
  }
  if (events.length > before) return;
  // A value with only `errors` is an asynchronous account-level failure: nothing to apply,
  // but the codes are kept so the delivery says why it produced no family.
  if (value.errors?.length) skip('provider_errors', value.errors.map((e) => e.code));
  else if (!value.messages?.length && !value.statuses?.length) skip('empty');
}

function toInbound(scope: ChannelScope, value: MessagesValue, m: InboundMessageValue): InboundMessageEvent {
  const contact = value.contacts?.find((c) => c.wa_id === m.from) ?? value.contacts?.[0];
  const mediaRaw = (MEDIA_TYPES as readonly string[]).includes(m.type) ? mediaSchema.safeParse(m[m.type]) : undefined;
  const media = mediaRaw?.success ? mediaRaw.data : undefined;
  const choice = m.interactive?.button_reply ?? m.interactive?.list_reply;
  const reply = m.interactive
    ? { kind: m.interactive.type, id: choice?.id ?? null, title: choice?.title ?? null }
    : m.button
      ? { kind: 'button', id: m.button.payload ?? null, title: m.button.text ?? null }
      : null;
  const text = m.text?.body ?? media?.caption ?? reply?.title ?? null;
  return {
    ...scope,
    family: 'message.inbound',
    providerMessageId: m.id,
    from: m.from,
    contactName: contact?.profile?.name ?? null,
    sentAt: isoFromUnix(m.timestamp),
    type: m.type,
    text,
    media: media
      ? { kind: m.type, id: media.id, mimeType: media.mime_type ?? null, sha256: media.sha256 ?? null, filename: media.filename ?? null }
      : null,
    reply,
    inReplyToMessageId: m.context?.id ?? null,
    keyword: m.type === 'text' && text !== null && OPT_OUT_KEYWORDS.has(text.trim().toUpperCase()) ? 'opt_out' : null,
  };
}

function toProviderError(e: ProviderErrorValue): ProviderError {
  return { code: e.code, title: e.title ?? e.message ?? null, details: e.error_data?.details ?? null };
}

function toStatus(scope: ChannelScope, s: StatusValue): MessageStatusEvent {
  return {
    ...scope,
    family: 'message.status',
    providerMessageId: s.id,
    status: s.status as MessageStatus,
    occurredAt: isoFromUnix(s.timestamp),
    recipient: s.recipient_id,
    conversationId: s.conversation?.id ?? null,
    pricing: s.pricing
      ? { billable: s.pricing.billable ?? null, model: s.pricing.pricing_model ?? null, category: s.pricing.category ?? null }
      : null,
    errors: (s.errors ?? []).map(toProviderError),
  };
}

/** A status that opens a billed conversation, or a failure saying the window is closed. */
function conversationFromStatus(scope: ChannelScope, s: StatusValue): ConversationUpdatedEvent[] {
  const base = { ...scope, family: 'conversation.updated' as const, contact: s.recipient_id, occurredAt: isoFromUnix(s.timestamp) };
  if (s.conversation?.expiration_timestamp !== undefined) {
    return [{
      ...base,
      change: 'conversation_opened',
      conversationId: s.conversation.id,
      origin: s.conversation.origin?.type ?? null,
      expiresAt: isoFromUnix(s.conversation.expiration_timestamp),
    }];
  }
  if (s.status === 'failed' && s.errors?.some((e) => WINDOW_CLOSED_ERROR_CODES.has(e.code))) {
    return [{ ...base, change: 'service_window_closed', conversationId: null, origin: null, expiresAt: null }];
  }
  return [];
}

function normalizeTemplateStatus(accountId: string, raw: unknown): TemplateUpdatedEvent | undefined {
  const parsed = templateStatusValueSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const v = parsed.data;
  return {
    family: 'template.updated',
    accountId,
    providerTemplateId: String(v.message_template_id),
    name: v.message_template_name,
    language: v.message_template_language,
    category: v.message_template_category ?? null,
    event: v.event,
    status: TEMPLATE_STATUS[v.event.toUpperCase()] ?? 'other',
    reason: v.reason && v.reason !== 'NONE' ? v.reason : null,
    detail: v.other_info?.description ?? null,
  };
}

export interface EventSummary {
  family: EventFamily;
  ref: string | null;
  detail: string | null;
}

/**
 * What a delivery row stores about each event: family, provider reference and outcome,
 * without phone numbers or message content (those stay in the raw envelope only).
 */
export function summarizeEvent(ev: NormalizedEvent): EventSummary {
  switch (ev.family) {
    case 'message.inbound':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.keyword ?? ev.type };
    case 'message.status':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.errors[0] ? `${ev.status}:${ev.errors[0].code}` : ev.status };
    case 'template.updated':
      return { family: ev.family, ref: ev.providerTemplateId, detail: ev.status };
    case 'conversation.updated':
      return { family: ev.family, ref: ev.conversationId, detail: ev.change };
  }
}
