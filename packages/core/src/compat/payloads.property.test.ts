import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPAT_TOPICS, normalizeCompatEvent, readCompatSummary } from './events';
import {
  COMPAT_CONTACT_CONTAINERS,
  COMPAT_EVENT_ID_FIELDS,
  COMPAT_PHONE_FIELDS,
  jsonDepth,
  MAX_COMPAT_DEPTH,
  parseCompatContactUpsert,
  parseCompatJson,
  parseCompatPartnerEvent,
  parseCompatTrigger,
  readCompatContact,
  type CompatContactFields,
  type Parsed,
} from './payloads';

/**
 * The compat readers are total: whatever bytes or JSON a legacy caller sends, each returns a
 * typed result and never throws; a refusal is a message that names fields, never the value
 * that was refused (it is answered to the caller and logged).
 */

type Obj = Record<string, unknown>;
const enc = (s: string) => new TextEncoder().encode(s);

const BODY_MESSAGES = [
  'The body is not valid UTF-8',
  'The body is empty: send a JSON object',
  'The body is not valid JSON',
  'The body must be a JSON object',
  `The body is nested deeper than ${MAX_COMPAT_DEPTH} levels`,
];
const E164 = /^\+[1-9]\d{6,14}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
/** Whether `message` holds the marker or any 6-character piece of it (a partial echo). */
const echoes = (message: string, marker: string): boolean =>
  Array.from({ length: marker.length - 5 }, (_, i) => marker.slice(i, i + 6)).some((piece) => message.includes(piece));

/** Keys a legacy caller might send, plus reserved and prototype-named ones. */
const KEYS = [
  ...COMPAT_PHONE_FIELDS,
  ...COMPAT_CONTACT_CONTAINERS,
  ...COMPAT_EVENT_ID_FIELDS,
  'external_reference_id',
  'externalReferenceId',
  'external_id',
  'source_type',
  'sourceType',
  'name',
  'full_name',
  'fullName',
  'first_name',
  'firstName',
  'last_name',
  'lastName',
  'email',
  'email_address',
  'locale',
  'language',
  'person_properties',
  'properties',
  'event_properties',
  'event_name',
  'eventName',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
];

/** Values that hit the readers' edges: phones in every format, NULs, long text, wrong types. */
const edgeScalar = fc.oneof(
  fc.constantFrom(
    '+447700900123',
    '447700900123',
    '00447700900123',
    '+44 (0)7700 900123',
    '07700900123',
    '+',
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'order_shipped',
    'order shipped',
    'order\u200bshipped',
    'ada@example.com',
    'not-an-email',
    '😀',
    'x'.repeat(300),
    '9'.repeat(70),
    447700900123,
    16505551234,
    0,
    -1,
    1.5,
    1e21,
    Number.MAX_SAFE_INTEGER,
    2 ** 60,
    true,
    false,
    null,
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Objects built with own keys (as JSON.parse builds them: `__proto__` is an ordinary key). */
const objectOf = (value: fc.Arbitrary<unknown>) =>
  fc
    .array(fc.tuple(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), value), {
      maxLength: 8,
    })
    .map((entries) => Object.fromEntries(entries) as Obj);

const { hostile } = fc.letrec((tie) => ({
  hostile: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: edgeScalar },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: objectOf(tie('hostile')) },
    { weight: 1, arbitrary: fc.array(tie('hostile'), { maxLength: 3 }) },
  ),
}));
/** A legacy-shaped body: a top level of relevant keys, some with containers and property objects. */
const hostileBody = objectOf(hostile);
/** Through JSON text, as the ingress reads it (drops -0, undefined and the like). */
const asParsedBody = (o: Obj): Obj => {
  const r = parseCompatJson(enc(JSON.stringify(o)));
  return r.ok ? r.value : {};
};

function checkShape<T>(r: Parsed<T>): void {
  expect(typeof r.ok).toBe('boolean');
  if (!r.ok) {
    expect(typeof r.message).toBe('string');
    expect(r.message.length).toBeGreaterThan(0);
    expect(Object.keys(r).sort()).toEqual(['message', 'ok']);
  } else {
    expect(Object.keys(r).sort()).toEqual(['ok', 'value']);
  }
}

function checkContact(c: CompatContactFields): void {
  if (c.phone !== null) expect(c.phone).toMatch(E164);
  for (const [v, max] of [
    [c.externalReferenceId, 256],
    [c.sourceType, 64],
    [c.email, 320],
    [c.locale, 15],
  ] as const) {
    if (v !== null) {
      expect(typeof v).toBe('string');
      expect(v).toBe(v.trim());
      expect(v).not.toBe('');
      expect(v).not.toContain('\u0000');
      expect([...v].length).toBeLessThanOrEqual(max);
    }
  }
  if (c.email !== null) expect(c.email).toMatch(/^[^\s@]+@[^\s@]+$/);
  if (c.name !== null) {
    expect(c.name).not.toBe('');
    expect(c.name).not.toContain('\u0000');
  }
  const keys = Object.keys(c.properties);
  expect(keys.length).toBeLessThanOrEqual(100);
  for (const k of keys) {
    expect(RESERVED.has(k)).toBe(false);
    expect(k).not.toBe('');
    const v = c.properties[k];
    expect(v === null || ['string', 'number', 'boolean'].includes(typeof v)).toBe(true);
    if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
    if (typeof v === 'string') expect(v).not.toContain('\u0000');
  }
}

/**
 * No identity or reserved key in personalization. (person_properties are spread in with only the
 * reserved keys dropped, so a property named like an identity field does come through: see the
 * example test.)
 */
function checkPersonalization(p: Record<string, unknown>, b: Obj): void {
  expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  const props = isObj(b.person_properties) && hasOwn(b, 'person_properties') ? b.person_properties : {};
  for (const k of RESERVED) expect(hasOwn(p, k), k).toBe(false);
  for (const k of [...COMPAT_PHONE_FIELDS, ...COMPAT_EVENT_ID_FIELDS, 'event_name']) if (!hasOwn(props, k)) expect(hasOwn(p, k), k).toBe(false);
}

/** Every reader on one body, with the invariants each acceptance promises. */
function readAll(b: Obj): Parsed<unknown>[] {
  const upsert = parseCompatContactUpsert(b);
  checkShape(upsert);
  if (upsert.ok) {
    checkContact(upsert.value);
    expect(upsert.value.phone !== null || upsert.value.externalReferenceId !== null).toBe(true);
  }
  const trigger = parseCompatTrigger(b);
  checkShape(trigger);
  if (trigger.ok) {
    expect(trigger.value.phone).toMatch(E164);
    checkPersonalization(trigger.value.personalization, b);
  }
  const event = parseCompatPartnerEvent(b);
  checkShape(event);
  if (event.ok) {
    checkContact(event.value.contact);
    expect(event.value.eventName).not.toMatch(/\s/);
    checkPersonalization(event.value.personalization, b);
  }
  // The readers agree on the contact: one accepts it only if the others' contact reading does.
  const contact = readCompatContact(b);
  if (upsert.ok) expect(contact).toEqual(upsert);
  // A trigger reads only the phone number (other contact-named keys are personalization).
  if (trigger.ok && contact.ok) expect(contact.value.phone).toBe(trigger.value.phone);
  if (event.ok) expect(contact).toEqual({ ok: true, value: event.value.contact });
  return [upsert, trigger, event];
}

describe('parseCompatJson is total', () => {
  it('any bytes: a typed result, never a throw', () => {
    const raw = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 60 }).map(enc),
      fc.json({ maxDepth: 4 }).map(enc),
      // Valid JSON with one byte replaced: mostly broken UTF-8 or broken JSON.
      fc.tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([t, i, byte]) => {
        const b = enc(t);
        if (b.length > 0) b[i % b.length] = byte;
        return b;
      }),
    );
    fc.assert(
      fc.property(raw, (b) => {
        const r = parseCompatJson(b);
        checkShape(r);
        if (r.ok) {
          expect(isObj(r.value)).toBe(true);
          expect(jsonDepth(r.value)).toBeLessThanOrEqual(MAX_COMPAT_DEPTH);
        } else expect(BODY_MESSAGES).toContain(r.message);
      }),
      { numRuns: 500 },
    );
  });

  it('any JSON object within 32 levels reads back as itself; any other JSON value is refused as not an object', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const text = JSON.stringify(v);
        const r = parseCompatJson(enc(text));
        if (isObj(v)) expect(r).toEqual({ ok: true, value: JSON.parse(text) });
        else expect(r).toEqual({ ok: false, message: 'The body must be a JSON object' });
      }),
    );
  });

  it('any nesting depth: accepted up to 32 levels, refused beyond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (depth, arrays) => {
        let text = '1';
        for (let i = 0; i < depth; i++) text = arrays[i] ? `[${text}]` : `{"k":${text}}`;
        const r = parseCompatJson(enc(`{"root":${text}}`));
        // The root object is level 0, so `depth` containers under its key sit at depth `depth`.
        if (depth <= MAX_COMPAT_DEPTH) expect(r.ok).toBe(true);
        else expect(r).toEqual({ ok: false, message: 'The body is nested deeper than 32 levels' });
      }),
    );
  });
});

describe('the readers are total', () => {
  it('any legacy-shaped body: each parser returns a typed result and never throws', () => {
    fc.assert(
      fc.property(hostileBody, (raw) => {
        readAll(raw);
        readAll(asParsedBody(raw));
      }),
      { numRuns: 600 },
    );
  });

  it('any JSON object (arbitrary keys and values): each parser returns a typed result', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 4 })), (b) => {
        readAll(b);
      }),
    );
  });

  it('normalizeCompatEvent with arbitrary summaries and bodies: typed result, and it reads what the ingress parsers read', () => {
    const str = fc.oneof(fc.string({ maxLength: 8 }), fc.constant('ctr_1'));
    const summary = fc.oneof(
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      {
        weight: 4,
        arbitrary: fc.record(
          {
            compat: fc.oneof(fc.constantFrom(...COMPAT_TOPICS), fc.constantFrom('other', '', 'toString'), fc.jsonValue({ maxDepth: 1 })),
            route: fc.oneof(str, fc.jsonValue({ maxDepth: 1 })),
            mappingId: fc.oneof(str, fc.constant(null), fc.integer()),
            journeyId: fc.oneof(str, fc.constant(null), fc.integer()),
            contactId: fc.oneof(str, fc.constant(null), fc.integer()),
            eventName: fc.oneof(str, fc.constant(null)),
            triggerKey: fc.oneof(str, fc.constant(null)),
            rootEventId: fc.oneof(str, fc.constant(null), fc.integer()),
          },
          { requiredKeys: ['compat'] },
        ),
      },
    );
    const raw = fc.oneof(
      { weight: 4, arbitrary: hostileBody.map((o) => enc(JSON.stringify(o))) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
      { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map(enc) },
    );
    fc.assert(
      fc.property(summary, raw, (s, b) => {
        const r = normalizeCompatEvent(s, b);
        checkShape(r);
        const read = readCompatSummary(s);
        if (!read) {
          expect(r).toEqual({ ok: false, message: 'the stored event has no compat summary' });
          return;
        }
        const body = parseCompatJson(b);
        if (!body.ok) {
          expect(r).toEqual(body);
          return;
        }
        // The worker reads exactly what the ingress's parser reads.
        if (read.compat === 'contact_upsert') {
          const c = parseCompatContactUpsert(body.value);
          if (!read.contactId) expect(r).toEqual({ ok: false, message: 'the stored contact upsert names no contact' });
          else if (!c.ok) expect(r).toEqual(c);
          else
            expect(r).toEqual({ ok: true, value: { summary: read, family: { family: 'compat.contact_upsert', contactId: read.contactId, contact: c.value } } });
        } else if (read.compat === 'journey_trigger') {
          const t = parseCompatTrigger(body.value);
          if (!read.journeyId) expect(r).toEqual({ ok: false, message: 'the stored trigger names no journey' });
          else if (!t.ok) expect(r).toEqual(t);
          else expect(r).toEqual({ ok: true, value: { summary: read, family: { family: 'compat.journey_trigger', journeyId: read.journeyId, ...t.value } } });
        } else {
          const p = parseCompatPartnerEvent(body.value);
          if (!p.ok) expect(r).toEqual(p);
          else expect(r).toEqual({ ok: true, value: { summary: read, family: { family: 'compat.partner_event', ...p.value } } });
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('refusals never echo the refused value', () => {
  /** A distinctive value, with letters (so it is never a phone number). */
  const marker = fc.stringMatching(/^[A-Za-z0-9]{10}$/).map((s) => `mK${s}`);
  const TEXT_FIELDS = [
    'external_reference_id',
    'externalReferenceId',
    'external_id',
    'source_type',
    'sourceType',
    'name',
    'full_name',
    'fullName',
    'first_name',
    'firstName',
    'last_name',
    'lastName',
    'email',
    'email_address',
    'locale',
    'language',
  ];
  type Bad = { field: string; value: (m: string) => unknown };
  const badValues: Bad[] = [
    ...COMPAT_PHONE_FIELDS.flatMap((field) => [
      { field, value: (m: string) => m },
      { field, value: (m: string) => `+44 ${m}` },
      { field, value: (m: string) => `+${[...m].map((c) => c.charCodeAt(0) % 10).join('')}99999` },
      { field, value: (m: string) => ({ number: m }) },
      { field, value: (m: string) => [m] },
    ]),
    ...TEXT_FIELDS.flatMap((field) => [
      { field, value: (m: string) => `${m}\u0000` },
      { field, value: (m: string) => `${m}${'x'.repeat(400)}` },
      { field, value: (m: string) => ({ v: m }) },
      { field, value: (m: string) => [m] },
    ]),
    { field: 'email', value: (m: string) => `${m} at example.com` },
    { field: 'email_address', value: (m: string) => `${m}@@example.com` },
    { field: 'person_properties', value: (m: string) => ({ plan: `${m}\u0000` }) },
    { field: 'person_properties', value: (m: string) => ({ plan: m.repeat(120) }) },
    { field: 'person_properties', value: (m: string) => ({ plan: { v: m } }) },
    { field: 'person_properties', value: (m: string) => ({ plan: [m] }) },
    { field: 'person_properties', value: (m: string) => m },
    { field: 'person_properties', value: (m: string) => [m] },
  ];

  it('a contact field refused in any reader, flattened or nested: the message holds no part of the value', () => {
    let refusals = 0;
    fc.assert(
      fc.property(
        marker,
        fc.constantFrom(...badValues),
        fc.constantFrom<string | null>(null, ...COMPAT_CONTACT_CONTAINERS),
        fc.dictionary(
          fc.string({ maxLength: 8 }).filter((k) => !KEYS.includes(k)),
          fc.string({ maxLength: 8 }),
          { maxKeys: 3 },
        ),
        (m, bad, container, extra) => {
          const isPhone = (COMPAT_PHONE_FIELDS as readonly string[]).includes(bad.field);
          const contact: Obj = isPhone ? { external_reference_id: 'crm-1' } : { phone: '+447700900123' };
          contact[bad.field] = bad.value(m);
          const b: Obj = { event_name: 'order_shipped', ...extra, ...(container ? { [container]: contact } : contact) };
          // A trigger judges only its phone number: a bad other field is its personalization.
          const readers = isPhone
            ? [readCompatContact(b), parseCompatContactUpsert(b), parseCompatTrigger(b), parseCompatPartnerEvent(b)]
            : [readCompatContact(b), parseCompatContactUpsert(b), parseCompatPartnerEvent(b)];
          for (const r of readers) {
            expect(r.ok).toBe(false);
            if (!r.ok) {
              refusals++;
              expect(echoes(r.message, m), r.message).toBe(false);
            }
          }
          const n = normalizeCompatEvent({ compat: 'partner_event', route: '/r', rootEventId: 'e' }, enc(JSON.stringify(b)));
          expect(n.ok).toBe(false);
          if (!n.ok) expect(echoes(n.message, m), n.message).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
    // Every run refused in every reader that judges the field (three or four of them).
    expect(refusals).toBeGreaterThanOrEqual(300 * 3);
  });

  it('a refused event_name: the message holds no part of it', () => {
    const ws = fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u200b', '\u2028', '\u3000', '\ufeff', '\u0000');
    fc.assert(
      fc.property(marker, ws, fc.nat(), fc.constantFrom('ws', 'long', 'type'), (m, w, at, kind) => {
        const i = at % (m.length + 1);
        const name = kind === 'ws' ? m.slice(0, i) + w + m.slice(i) : kind === 'long' ? m.repeat(11) : { name: m };
        const r = parseCompatPartnerEvent({ event_name: name, phone: '+447700900123' });
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(echoes(r.message, m), r.message).toBe(false);
          expect(r.message).toMatch(/^event_name /);
        }
      }),
    );
  });

  it('any body with marker values anywhere: no refusal message contains a marker', () => {
    // Hostile bodies whose string values are replaced by markers (keys stay: they are field names).
    const withMarkers = (v: unknown, m: string): unknown => {
      if (typeof v === 'string') return `${m}${v}`;
      if (Array.isArray(v)) return v.map((x) => withMarkers(x, m));
      if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withMarkers(x, m)]));
      return v;
    };
    fc.assert(
      fc.property(marker, hostileBody, (m, raw) => {
        const b = withMarkers(raw, m) as Obj;
        for (const r of readAll(b)) if (!r.ok) expect(echoes(r.message, m), r.message).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

describe('phone numbers in every legacy format', () => {
  const e164Digits = fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 14 }))
    .map(([first, rest]) => `${first}${rest.join('')}`);
  /** The digits with random spaces, dots and dashes between them. */
  const formatted = (digits: string, seps: string[]) => [...digits].map((d, i) => (i > 0 ? (seps[i % seps.length] ?? '') : '') + d).join('');

  it('any E.164 number, in any phone field, flattened or nested, as +digits, digits, 00digits, a JSON number or formatted: read as +digits', () => {
    fc.assert(
      fc.property(
        e164Digits,
        fc.constantFrom(...COMPAT_PHONE_FIELDS),
        fc.constantFrom<string | null>(null, ...COMPAT_CONTACT_CONTAINERS),
        fc.constantFrom('plus', 'bare', '00', 'number', 'formatted'),
        fc.array(fc.constantFrom('', '', ' ', '-', '.'), { minLength: 1, maxLength: 5 }),
        (digits, field, container, style, seps) => {
          const value =
            style === 'plus'
              ? `+${digits}`
              : style === 'bare'
                ? digits
                : style === '00'
                  ? `00${digits}`
                  : style === 'number'
                    ? Number(digits)
                    : `+${formatted(digits, seps)}`;
          const contact = { [field]: value };
          const b = container ? { [container]: contact } : contact;
          expect(readCompatContact(b)).toEqual({
            ok: true,
            value: { phone: `+${digits}`, externalReferenceId: null, sourceType: null, name: null, email: null, locale: null, properties: {} },
          });
          expect(parseCompatTrigger(b)).toEqual({ ok: true, value: { phone: `+${digits}`, personalization: {} } });
        },
      ),
    );
  });
});

describe('flattened and nested contacts read alike', () => {
  const field = fc.constantFrom(...KEYS.filter((k) => !(COMPAT_CONTACT_CONTAINERS as readonly string[]).includes(k) && k !== 'properties'));
  const contactObject = fc
    .array(fc.tuple(field, fc.oneof(edgeScalar, fc.dictionary(fc.string({ maxLength: 6 }), edgeScalar, { maxKeys: 3 }))), { maxLength: 6 })
    .map((entries) => Object.fromEntries(entries) as Obj);

  it('any contact object gives the same result (value or refusal) flattened and in any container', () => {
    fc.assert(
      fc.property(contactObject, fc.constantFrom(...COMPAT_CONTACT_CONTAINERS), (c, container) => {
        expect(readCompatContact({ [container]: c })).toEqual(readCompatContact(c));
      }),
    );
  });
});

describe('trigger personalization is every other key', () => {
  it('a phone plus any other keys: the personalization is exactly those keys, as sent', () => {
    const other = fc.string({ minLength: 1, maxLength: 10 }).map((k) => `x_${k}`);
    fc.assert(
      fc.property(
        fc.constantFrom(...COMPAT_PHONE_FIELDS),
        fc.dictionary(other, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
        fc.constantFrom(...COMPAT_EVENT_ID_FIELDS, 'event_name'),
        (phoneField, extra, reserved) => {
          const r = parseCompatTrigger({ [phoneField]: '+447700900123', [reserved]: 'id-1', ...extra });
          expect(r).toEqual({ ok: true, value: { phone: '+447700900123', personalization: extra } });
        },
      ),
    );
  });
});
