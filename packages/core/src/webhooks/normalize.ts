import type { ChangeContext, SkipReason, SkippedChange } from './change-context';
import type { EventFamily, NormalizedEvent } from './events';
import { ACCOUNT_FIELDS, normalizeAccountChange } from './normalize-account';
import { normalizeEchoes } from './normalize-echoes';
import { normalizeMessagesValue } from './normalize-messages';
import { normalizePreferences } from './normalize-preferences';
import { normalizeTemplateCategory, normalizeTemplateComponents, normalizeTemplateStatusOrQuality } from './normalize-templates';
import { isoFromUnix } from './value-readers';

export type { SkipReason, SkippedChange } from './change-context';

/**
 * Pure normalization of a provider envelope into the event families of events.ts. No I/O, no
 * clock: the same envelope always yields the same families, which is what lets the worker
 * retry and replay a delivery safely. Total: it never throws on any JSON (property-tested),
 * and works change by change and item by item, so one odd change or message is skipped with
 * its reason while its siblings are kept.
 */

/** The outer frame the normalizer walks; any parsed envelope (envelope.ts) fits it. */
export interface NormalizableEnvelope {
  entry: ReadonlyArray<{ id: string; time?: unknown; changes: ReadonlyArray<{ field: string; value?: unknown }> }>;
}

export interface NormalizedEnvelope {
  events: NormalizedEvent[];
  skipped: SkippedChange[];
}

type FieldNormalizer = (ctx: ChangeContext, value: unknown) => void;

/** Every change field mos handles; any other is skipped as `unsupported_field` (stored, topic `unknown`). */
const FIELD_NORMALIZERS: ReadonlyMap<string, FieldNormalizer> = new Map<string, FieldNormalizer>([
  ['messages', normalizeMessagesValue],
  ['message_template_status_update', normalizeTemplateStatusOrQuality],
  ['message_template_quality_update', normalizeTemplateStatusOrQuality],
  ['template_category_update', normalizeTemplateCategory],
  ['message_template_components_update', normalizeTemplateComponents],
  ['smb_message_echoes', normalizeEchoes],
  ['user_preferences', normalizePreferences],
  ...ACCOUNT_FIELDS.map((field) => [field, normalizeAccountChange] as const),
]);

export const HANDLED_FIELDS: readonly string[] = [...FIELD_NORMALIZERS.keys()];

export function normalizeEnvelope(envelope: NormalizableEnvelope): NormalizedEnvelope {
  const out: NormalizedEnvelope = { events: [], skipped: [] };
  for (const entry of envelope.entry) {
    const entryTime = isoFromUnix(entry.time);
    for (const change of entry.changes) {
      const ctx: ChangeContext = {
        accountId: entry.id,
        field: change.field,
        entryTime,
        emit: (event) => out.events.push(event),
        skip: (reason: SkipReason, ref?: string | null) => out.skipped.push({ entryId: entry.id, field: change.field, reason, ...(ref ? { ref } : {}) }),
      };
      const normalize = FIELD_NORMALIZERS.get(change.field);
      if (normalize) normalize(ctx, change.value);
      else ctx.skip('unsupported_field');
    }
  }
  return out;
}

export interface EventSummary {
  family: EventFamily;
  ref: string | null;
  detail: string | null;
}

/**
 * What a delivery row stores about each event: family, provider reference and outcome. No
 * phone numbers, user ids, names or message content (those stay in the raw envelope and the
 * effects' tables); emoji and edited text count as content too.
 */
export function summarizeEvent(ev: NormalizedEvent): EventSummary {
  const summary = summarize(ev);
  // Provider strings (types, categories, events) are bounded before they are stored.
  return { ...summary, ref: summary.ref?.slice(0, 200) ?? null, detail: summary.detail?.slice(0, 100) ?? null };
}

function summarize(ev: NormalizedEvent): EventSummary {
  switch (ev.family) {
    case 'message.inbound':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.optKeyword ? `${ev.type}:${ev.optKeyword}` : ev.type };
    case 'message.reaction':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.emoji === null ? 'removed' : 'added' };
    case 'message.edited':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.type };
    case 'message.revoked':
      return { family: ev.family, ref: ev.providerMessageId, detail: 'revoked' };
    case 'message.echo':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.type };
    case 'message.status':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.errors[0] ? `${ev.status}:${ev.errors[0].code}` : ev.status };
    case 'contact.changed':
      return { family: ev.family, ref: ev.providerMessageId, detail: ev.change };
    case 'contact.preferences':
      return { family: ev.family, ref: null, detail: `${ev.category}:${ev.value}` };
    case 'conversation.updated':
      return { family: ev.family, ref: ev.conversationId, detail: ev.change };
    case 'template.updated':
      return { family: ev.family, ref: ev.providerTemplateId, detail: templateDetail(ev) };
    case 'account.updated':
      return { family: ev.family, ref: ev.accountId, detail: `${ev.field}:${ev.event}` };
  }
}

function templateDetail(ev: Extract<NormalizedEvent, { family: 'template.updated' }>): string {
  switch (ev.change) {
    case 'status':
      return `status:${ev.status}`;
    case 'quality':
      return `quality:${ev.newScore}`;
    case 'category':
      return `category:${ev.newCategory}`;
    case 'components':
      return 'components';
  }
}
