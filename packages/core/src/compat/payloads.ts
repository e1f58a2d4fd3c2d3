import { normalizeRecipientPhone } from '../inbound-webhooks/mapping';
import { hasNul } from '../text';

/**
 * The legacy-compatible paths' request bodies (docs/compat.md), read into one shape. Every
 * reader is total: any JSON value yields a typed result, and refusal messages name fields,
 * never values (they are returned to the caller and logged).
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Phone-number fields legacy callers send, in the order they are tried. */
export const COMPAT_PHONE_FIELDS = ['phone', 'phone_number', 'phoneNumber', 'to', 'msisdn', 'mobile', 'mobile_phone'] as const;
/** Objects a contact may be nested in (the "nested" style); otherwise the fields sit at the top level. */
export const COMPAT_CONTACT_CONTAINERS = ['contact', 'person', 'user', 'customer'] as const;
/** Body fields that name a trigger's own idempotency key (an `Idempotency-Key` header wins). */
export const COMPAT_EVENT_ID_FIELDS = ['idempotency_key', 'event_id', 'eventId', 'trigger_event_id'] as const;

export const MAX_COMPAT_PROPERTIES = 100;
export const MAX_PROPERTY_KEY_CHARS = 128;
export const MAX_PROPERTY_VALUE_CHARS = 1024;
export const MAX_COMPAT_DEPTH = 32;

export type PropertyValue = string | number | boolean | null;

export interface CompatContactFields {
  /** E.164 with +, or null when not sent. */
  phone: string | null;
  externalReferenceId: string | null;
  sourceType: string | null;
  name: string | null;
  email: string | null;
  locale: string | null;
  /** `person_properties`: scalars; a null removes the property. */
  properties: Record<string, PropertyValue>;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** Nesting depth of a parsed JSON value (iterative: a hostile body cannot exhaust the stack). */
export function jsonDepth(value: unknown, limit: number = MAX_COMPAT_DEPTH + 1): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (max >= limit) return max;
    if (v && typeof v === 'object') for (const child of Object.values(v as Obj)) if (child && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}

/** Strict UTF-8, JSON, an object, nesting within MAX_COMPAT_DEPTH. */
export function parseCompatJson(raw: Uint8Array): Parsed<Obj> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { ok: false, message: 'The body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: false, message: 'The body is empty: send a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The body is not valid JSON' };
  }
  if (!isObj(value)) return { ok: false, message: 'The body must be a JSON object' };
  if (jsonDepth(value) > MAX_COMPAT_DEPTH) return { ok: false, message: `The body is nested deeper than ${MAX_COMPAT_DEPTH} levels` };
  return { ok: true, value };
}

function text(o: Obj, keys: readonly string[], field: string, max: number): Parsed<string | null> {
  for (const k of keys) {
    const v = own(o, k);
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'number' && Number.isFinite(v) && field !== 'email') return text({ [k]: String(v) }, [k], field, max);
    if (typeof v !== 'string') return { ok: false, message: `${k} must be a string` };
    if (hasNul(v)) return { ok: false, message: `${k} must not contain NUL characters` };
    const t = v.trim();
    if (t === '') continue;
    if ([...t].length > max) return { ok: false, message: `${k} must be at most ${max} characters` };
    return { ok: true, value: t };
  }
  return { ok: true, value: null };
}

/** The first phone field present, as E.164; a present field that is not a phone number is refused. */
export function compatPhoneOf(o: Obj): Parsed<string | null> {
  for (const k of COMPAT_PHONE_FIELDS) {
    const v = own(o, k);
    if (v === undefined || v === null || v === '') continue;
    const raw = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
    if (typeof raw !== 'string') return { ok: false, message: `${k} must be a string` };
    // Legacy callers often send the digits without a leading +; a number is international here.
    const trimmed = raw.trim();
    const phone = normalizeRecipientPhone(/^\d/.test(trimmed) && !trimmed.startsWith('00') ? `+${trimmed}` : trimmed);
    if (!phone) return { ok: false, message: `${k} is not a phone number in international format` };
    return { ok: true, value: phone };
  }
  return { ok: true, value: null };
}

function properties(v: unknown, field: string): Parsed<Record<string, PropertyValue>> {
  if (v === undefined || v === null) return { ok: true, value: {} };
  if (!isObj(v)) return { ok: false, message: `${field} must be an object` };
  const out: Record<string, PropertyValue> = {};
  const entries = Object.entries(v);
  if (entries.length > MAX_COMPAT_PROPERTIES) return { ok: false, message: `${field} may hold at most ${MAX_COMPAT_PROPERTIES} keys` };
  for (const [k, x] of entries) {
    if (k === '' || [...k].length > MAX_PROPERTY_KEY_CHARS || hasNul(k) || FORBIDDEN_KEYS.has(k)) {
      return { ok: false, message: `${field} has a key that is empty, too long or reserved` };
    }
    if (x === null || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x))) out[k] = x;
    else if (typeof x === 'string') {
      if (hasNul(x)) return { ok: false, message: `${field}.${k} must not contain NUL characters` };
      if ([...x].length > MAX_PROPERTY_VALUE_CHARS) return { ok: false, message: `${field}.${k} must be at most ${MAX_PROPERTY_VALUE_CHARS} characters` };
      out[k] = x;
    } else return { ok: false, message: `${field}.${k} must be a string, number, boolean or null` };
  }
  return { ok: true, value: out };
}

/** The contact object: the nested one when the body has one, else the body itself (flattened style). */
export function compatContactObject(body: Obj): Obj {
  for (const k of COMPAT_CONTACT_CONTAINERS) {
    const v = own(body, k);
    if (isObj(v)) return v;
  }
  return body;
}

/**
 * A contact in the legacy contact-update shape, flattened or nested. `external_reference_id`,
 * `source_type` and `person_properties` are first-class; the name is `name`, or `first_name`
 * and `last_name`. Flattened fields beside a nested contact fill what it leaves out.
 */
export function readCompatContact(body: Obj): Parsed<CompatContactFields> {
  const nested = compatContactObject(body);
  const layers = nested === body ? [body] : [nested, body];
  const pick = <T>(read: (o: Obj) => Parsed<T | null>): Parsed<T | null> => {
    for (const o of layers) {
      const r = read(o);
      if (!r.ok || r.value !== null) return r;
    }
    return { ok: true, value: null };
  };
  const phone = pick(compatPhoneOf);
  if (!phone.ok) return phone;
  const ext = pick((o) => text(o, ['external_reference_id', 'externalReferenceId', 'external_id'], 'external_reference_id', 256));
  if (!ext.ok) return ext;
  const sourceType = pick((o) => text(o, ['source_type', 'sourceType'], 'source_type', 64));
  if (!sourceType.ok) return sourceType;
  const email = pick((o) => text(o, ['email', 'email_address'], 'email', 320));
  if (!email.ok) return email;
  if (email.value !== null && !/^[^\s@]+@[^\s@]+$/.test(email.value)) return { ok: false, message: 'email is not an e-mail address' };
  const locale = pick((o) => text(o, ['locale', 'language'], 'locale', 15));
  if (!locale.ok) return locale;
  const full = pick((o) => text(o, ['name', 'full_name', 'fullName'], 'name', 256));
  if (!full.ok) return full;
  let name = full.value;
  if (name === null) {
    const first = pick((o) => text(o, ['first_name', 'firstName'], 'first_name', 128));
    if (!first.ok) return first;
    const last = pick((o) => text(o, ['last_name', 'lastName'], 'last_name', 128));
    if (!last.ok) return last;
    name = [first.value, last.value].filter(Boolean).join(' ') || null;
  }
  // `properties` is the contact's only inside a nested contact: at the top level it belongs to
  // the event (partner events) or is personalization.
  const rawProps = own(nested, 'person_properties') ?? own(body, 'person_properties') ?? (nested !== body ? own(nested, 'properties') : undefined);
  const props = properties(rawProps, 'person_properties');
  if (!props.ok) return props;
  return {
    ok: true,
    value: {
      phone: phone.value,
      externalReferenceId: ext.value,
      sourceType: sourceType.value,
      name,
      email: email.value,
      locale: locale.value,
      properties: props.value,
    },
  };
}

/** POST /compat/contact, PUT /api/v1beta/contact/: a contact with a phone number or an external reference id. */
export function parseCompatContactUpsert(body: Obj): Parsed<CompatContactFields> {
  const c = readCompatContact(body);
  if (!c.ok) return c;
  if (!c.value.phone && !c.value.externalReferenceId) {
    return { ok: false, message: `Send a phone number (${COMPAT_PHONE_FIELDS.join(', ')}) or an external_reference_id` };
  }
  return c;
}

export interface CompatTrigger {
  phone: string;
  /** Every other top-level key: forwarded into the queued job and the journey's templates. */
  personalization: Record<string, unknown>;
}

/** A journey trigger: a phone number (flattened or in a contact object) and any personalization keys. */
export function parseCompatTrigger(body: Obj): Parsed<CompatTrigger> {
  // Only the phone number is the contact here: other keys (an `email` of "n/a", a `name` object)
  // are personalization, judged by the templates that use them.
  const nested = compatContactObject(body);
  let phone = compatPhoneOf(nested);
  if (phone.ok && phone.value === null && nested !== body) phone = compatPhoneOf(body);
  if (!phone.ok) return phone;
  if (!phone.value) return { ok: false, message: `Send the contact's phone number in one of: ${COMPAT_PHONE_FIELDS.join(', ')}` };
  return { ok: true, value: { phone: phone.value, personalization: personalizationOf(body) } };
}

/** The body without the identity fields, containers and reserved keys. */
export function personalizationOf(body: Obj): Record<string, unknown> {
  const drop = new Set<string>([...COMPAT_PHONE_FIELDS, ...COMPAT_EVENT_ID_FIELDS, 'event_name', ...FORBIDDEN_KEYS]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (drop.has(k)) continue;
    // A nested contact's own fields are personalization too (first_name and the like).
    if ((COMPAT_CONTACT_CONTAINERS as readonly string[]).includes(k) && isObj(v)) {
      for (const [ck, cv] of Object.entries(v)) if (!drop.has(ck) && !Object.hasOwn(out, ck)) out[ck] = cv;
      continue;
    }
    if (k === 'person_properties' && isObj(v)) {
      for (const [pk, pv] of Object.entries(v)) if (!drop.has(pk) && !Object.hasOwn(out, pk)) out[pk] = pv;
      continue;
    }
    out[k] = v;
  }
  return out;
}

/**
 * Whitespace of any kind: JavaScript's \s (Unicode White_Space but for U+0085 and U+180E), NEXT
 * LINE, MONGOLIAN VOWEL SEPARATOR, and the invisible zero-width characters (U+200B-U+200D,
 * WORD JOINER, BOM) that make two event names look alike.
 */
export const EVENT_NAME_WHITESPACE = /[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]/u;

/** event_name: required, 1-128 characters, no whitespace of any kind. */
export function validateEventName(v: unknown): Parsed<string> {
  if (v === undefined || v === null || v === '') return { ok: false, message: 'event_name is required' };
  if (typeof v !== 'string') return { ok: false, message: 'event_name must be a string' };
  if (hasNul(v)) return { ok: false, message: 'event_name must not contain NUL characters' };
  if (EVENT_NAME_WHITESPACE.test(v)) return { ok: false, message: 'event_name must not contain whitespace' };
  if ([...v].length > 128) return { ok: false, message: 'event_name must be at most 128 characters' };
  return { ok: true, value: v };
}

export interface CompatPartnerEvent {
  eventName: string;
  contact: CompatContactFields;
  personalization: Record<string, unknown>;
}

/** POST /api/v0/webhooks/incoming/partner/custom_external_event. */
export function parseCompatPartnerEvent(body: Obj): Parsed<CompatPartnerEvent> {
  const name = validateEventName(own(body, 'event_name') ?? own(body, 'eventName'));
  if (!name.ok) return name;
  const c = readCompatContact(body);
  if (!c.ok) return c;
  if (!c.value.phone && !c.value.externalReferenceId) {
    return {
      ok: false,
      message: `Send the contact's phone number (${COMPAT_PHONE_FIELDS.join(', ')}) or external_reference_id, flattened or in a contact object`,
    };
  }
  const extra = isObj(own(body, 'properties'))
    ? (own(body, 'properties') as Obj)
    : isObj(own(body, 'event_properties'))
      ? (own(body, 'event_properties') as Obj)
      : {};
  return { ok: true, value: { eventName: name.value, contact: c.value, personalization: { ...personalizationOf(body), ...personalizationOf(extra) } } };
}

/** A caller-chosen trigger id from the body (for dedup), when it is a sane token. */
export function compatEventIdOf(body: Obj): string | null {
  for (const k of COMPAT_EVENT_ID_FIELDS) {
    const v = own(body, k);
    const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
    if (typeof s === 'string' && /^[\x21-\x7e]{1,256}$/.test(s)) return s;
  }
  return null;
}
