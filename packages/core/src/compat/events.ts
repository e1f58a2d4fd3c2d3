import { parseCompatContactUpsert, parseCompatJson, parseCompatPartnerEvent, parseCompatTrigger, type CompatContactFields, type Parsed } from './payloads';

/**
 * Compat calls are stored as webhook events (source `compat`) with an outbox job, and the
 * pipeline applies them like provider webhooks. What the ingress resolved from stored
 * configuration (the workspace, the journey a mapping names, the contact) rides in the event's
 * summary; the body is kept as sent and read again by the worker, so a replay applies exactly
 * what the caller sent.
 */
export const COMPAT_SOURCE = 'compat';
export const COMPAT_TOPICS = ['contact_upsert', 'journey_trigger', 'partner_event'] as const;
export type CompatTopic = (typeof COMPAT_TOPICS)[number];

/** The ingress's resolution, stored in the event summary (ids only, no personal data). */
export interface CompatEventSummary {
  compat: CompatTopic;
  /** The path called (its template, e.g. /compat/journey-trigger/:legacyPath). */
  route: string;
  /** The mapping that resolved the journey (journey triggers), or null. */
  mappingId: string | null;
  /** The journey a mapping names (journey triggers). */
  journeyId: string | null;
  /** The contact the ingress resolved or created (contact upserts). */
  contactId: string | null;
  /** Partner events. */
  eventName: string | null;
  /** How duplicates are recognised: `key:<caller id>` or `body:<sha-256>`. */
  triggerKey: string | null;
  /** The first event of a replay chain: journey runs are keyed by it, so a replay starts no second run. */
  rootEventId: string;
}

export type CompatFamily =
  | { family: 'compat.contact_upsert'; contactId: string; contact: CompatContactFields }
  | { family: 'compat.journey_trigger'; journeyId: string; phone: string; personalization: Record<string, unknown> }
  | { family: 'compat.partner_event'; eventName: string; contact: CompatContactFields; personalization: Record<string, unknown> };

export function isCompatTopic(v: unknown): v is CompatTopic {
  return typeof v === 'string' && (COMPAT_TOPICS as readonly string[]).includes(v);
}

/** Reads a stored summary back (jsonb from the database): null when it is not a compat summary. */
export function readCompatSummary(v: unknown): CompatEventSummary | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Record<string, unknown>;
  if (!isCompatTopic(s.compat) || typeof s.route !== 'string' || typeof s.rootEventId !== 'string') return null;
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  return {
    compat: s.compat,
    route: s.route,
    mappingId: str(s.mappingId),
    journeyId: str(s.journeyId),
    contactId: str(s.contactId),
    eventName: str(s.eventName),
    triggerKey: str(s.triggerKey),
    rootEventId: s.rootEventId,
  };
}

/**
 * The worker's reading of a stored compat event: the same parsers the ingress ran, so a body
 * the ingress accepted always reads the same way. Total: a typed refusal for anything else.
 */
export function normalizeCompatEvent(summary: unknown, rawBody: Uint8Array): Parsed<{ family: CompatFamily; summary: CompatEventSummary }> {
  const s = readCompatSummary(summary);
  if (!s) return { ok: false, message: 'the stored event has no compat summary' };
  const family = readCompatFamily(s, rawBody);
  return family.ok ? { ok: true, value: { family: family.value, summary: s } } : family;
}

function readCompatFamily(s: CompatEventSummary, rawBody: Uint8Array): Parsed<CompatFamily> {
  const body = parseCompatJson(rawBody);
  if (!body.ok) return body;
  switch (s.compat) {
    case 'contact_upsert': {
      if (!s.contactId) return { ok: false, message: 'the stored contact upsert names no contact' };
      const c = parseCompatContactUpsert(body.value);
      return c.ok ? { ok: true, value: { family: 'compat.contact_upsert', contactId: s.contactId, contact: c.value } } : c;
    }
    case 'journey_trigger': {
      if (!s.journeyId) return { ok: false, message: 'the stored trigger names no journey' };
      const t = parseCompatTrigger(body.value);
      return t.ok
        ? { ok: true, value: { family: 'compat.journey_trigger', journeyId: s.journeyId, phone: t.value.phone, personalization: t.value.personalization } }
        : t;
    }
    case 'partner_event': {
      const p = parseCompatPartnerEvent(body.value);
      return p.ok ? { ok: true, value: { family: 'compat.partner_event', ...p.value } } : p;
    }
  }
}
