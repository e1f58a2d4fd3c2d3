import { describe, expect, it } from 'vitest';
import { isCompatTopic, normalizeCompatEvent, readCompatSummary, type CompatEventSummary } from './events';
import {
  COMPAT_CONTACT_CONTAINERS,
  COMPAT_EVENT_ID_FIELDS,
  COMPAT_PHONE_FIELDS,
  compatContactObject,
  compatEventIdOf,
  compatPhoneOf,
  jsonDepth,
  MAX_COMPAT_DEPTH,
  parseCompatContactUpsert,
  parseCompatJson,
  parseCompatPartnerEvent,
  parseCompatTrigger,
  personalizationOf,
  readCompatContact,
  validateEventName,
  type CompatContactFields,
  type Parsed,
} from './payloads';

/**
 * The legacy-compatible readers, one payload variant at a time (docs/compat.md). Every refusal
 * is checked for its exact message and that it does not echo the value that was refused.
 */

type Obj = Record<string, unknown>;

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
/** A body as the ingress sees it: JSON text parsed by parseCompatJson (so `__proto__` is an own key). */
function body(json: string): Obj {
  const r = parseCompatJson(bytes(json));
  if (!r.ok) throw new Error(`fixture is not a compat body: ${r.message}`);
  return r.value;
}
function accepted<T>(r: Parsed<T>): T {
  if (!r.ok) throw new Error(`expected acceptance, got: ${r.message}`);
  return r.value;
}
/** The refusal message, checked to name no value among `secrets`. */
function refused<T>(r: Parsed<T>, ...secrets: string[]): string {
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  expect(typeof r.message).toBe('string');
  expect(r.message.length).toBeGreaterThan(0);
  for (const s of secrets) expect(r.message).not.toContain(s);
  return r.message;
}

const NOBODY: CompatContactFields = {
  phone: null,
  externalReferenceId: null,
  sourceType: null,
  name: null,
  email: null,
  locale: null,
  properties: {},
};
const contact = (fields: Partial<CompatContactFields>): CompatContactFields => ({ ...NOBODY, ...fields });

const UK = '+447700900123';
const PHONE_LIST = 'phone, phone_number, phoneNumber, to, msisdn, mobile, mobile_phone';

/** `{"a":{"a":...{}}}` with `levels` nested objects under the root: jsonDepth `levels`. */
const nestedObjects = (levels: number): string => '{"a":'.repeat(levels) + '{}' + '}'.repeat(levels);

describe('constants', () => {
  it('phone fields, containers and event id fields are the documented lists, in order', () => {
    expect([...COMPAT_PHONE_FIELDS]).toEqual(['phone', 'phone_number', 'phoneNumber', 'to', 'msisdn', 'mobile', 'mobile_phone']);
    expect([...COMPAT_CONTACT_CONTAINERS]).toEqual(['contact', 'person', 'user', 'customer']);
    expect([...COMPAT_EVENT_ID_FIELDS]).toEqual(['idempotency_key', 'event_id', 'eventId', 'trigger_event_id']);
    expect(MAX_COMPAT_DEPTH).toBe(32);
  });
});

describe('parseCompatJson', () => {
  it('reads a JSON object', () => {
    expect(parseCompatJson(bytes('{"phone":"+447700900123","n":1,"x":[true,null]}'))).toEqual({
      ok: true,
      value: { phone: UK, n: 1, x: [true, null] },
    });
    expect(parseCompatJson(bytes(' \n{}\t'))).toEqual({ ok: true, value: {} });
    expect(parseCompatJson(bytes('{"name":"Zoë 😀"}'))).toEqual({ ok: true, value: { name: 'Zoë 😀' } });
  });

  it('refuses an empty body', () => {
    expect(parseCompatJson(new Uint8Array(0))).toEqual({ ok: false, message: 'The body is empty: send a JSON object' });
    expect(parseCompatJson(bytes('  \r\n\t '))).toEqual({ ok: false, message: 'The body is empty: send a JSON object' });
  });

  it.each(['[]', '[{"phone":"+447700900123"}]', '"+447700900123"', '447700900123', 'null', 'true'])('refuses a body that is not an object: %s', (text) => {
    expect(parseCompatJson(bytes(text))).toEqual({ ok: false, message: 'The body must be a JSON object' });
  });

  it.each(['{"a":', '{phone: 1}', "{'a':1}", '{"a":1,}', '{} {}', 'undefined', '\u0000'])('refuses text that is not JSON: %j', (text) => {
    expect(parseCompatJson(bytes(text))).toEqual({ ok: false, message: 'The body is not valid JSON' });
  });

  it.each([
    ['a lone 0xff', [0xff]],
    ['Latin-1 é inside a string', [...bytes('{"name":"Zo'), 0xe9, ...bytes('"}')]],
    ['a bad continuation byte', [...bytes('{"a":"'), 0xc3, 0x28, ...bytes('"}')]],
    ['an overlong "/"', [...bytes('{"a":"'), 0xc0, 0xaf, ...bytes('"}')]],
    ['an encoded surrogate (CESU-8)', [...bytes('{"a":"'), 0xed, 0xa0, 0x80, ...bytes('"}')]],
    ['a truncated sequence at the end', [...bytes('{"a":"x"}'), 0xe2, 0x82]],
    ['a code point above U+10FFFF', [...bytes('{"a":"'), 0xf4, 0x90, 0x80, 0x80, ...bytes('"}')]],
  ])('refuses non-UTF-8 bytes: %s', (_name, raw) => {
    expect(parseCompatJson(Uint8Array.from(raw))).toEqual({ ok: false, message: 'The body is not valid UTF-8' });
  });

  it('accepts 32 levels of nesting and refuses 33', () => {
    expect(jsonDepth(JSON.parse(nestedObjects(32)))).toBe(32);
    expect(parseCompatJson(bytes(nestedObjects(32))).ok).toBe(true);
    expect(parseCompatJson(bytes(nestedObjects(33)))).toEqual({ ok: false, message: 'The body is nested deeper than 32 levels' });
    // Arrays count as levels too.
    const arrays = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(parseCompatJson(bytes(arrays(32))).ok).toBe(true);
    expect(parseCompatJson(bytes(arrays(33)))).toEqual({ ok: false, message: 'The body is nested deeper than 32 levels' });
  });

  it('refuses very deep nesting without exhausting the stack', () => {
    const n = 100_000;
    expect(parseCompatJson(bytes(`{"a":${'['.repeat(n)}${']'.repeat(n)}}`))).toEqual({
      ok: false,
      message: 'The body is nested deeper than 32 levels',
    });
  });

  it('keeps NUL escapes for the readers to refuse (the JSON itself is valid)', () => {
    expect(parseCompatJson(bytes('{"name":"a\\u0000b"}'))).toEqual({ ok: true, value: { name: 'a\u0000b' } });
  });

  it('reads __proto__ as an own key and pollutes nothing', () => {
    const v = body('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}');
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Obj).polluted).toBeUndefined();
  });
});

describe('compatPhoneOf', () => {
  it.each(COMPAT_PHONE_FIELDS.map((f) => [f]))('reads %s', (field) => {
    expect(compatPhoneOf({ [field]: UK })).toEqual({ ok: true, value: UK });
    expect(compatPhoneOf({ [field]: '447700900123' })).toEqual({ ok: true, value: UK });
    expect(compatPhoneOf({ [field]: 447700900123 })).toEqual({ ok: true, value: UK });
  });

  it.each([
    ['+447700900123', UK],
    ['447700900123', UK],
    ['00447700900123', UK],
    ['0044 7700 900123', UK],
    ['+44 7700 900123', UK],
    ['+44 (0)7700 900123', UK],
    ['+44-7700-900-123', UK],
    ['44.7700.900123', UK],
    ['  +447700900123  ', UK],
    ['+1 (650) 555-1234', '+16505551234'],
    ['16505551234', '+16505551234'],
    ['4915112345678', '+4915112345678'],
  ])('normalizes %j to %s', (raw, e164) => {
    expect(compatPhoneOf({ phone: raw })).toEqual({ ok: true, value: e164 });
  });

  it('reads a JSON number as international digits', () => {
    expect(compatPhoneOf({ msisdn: 16505551234 })).toEqual({ ok: true, value: '+16505551234' });
    expect(compatPhoneOf({ to: 4915112345678 })).toEqual({ ok: true, value: '+4915112345678' });
  });

  it('tries the fields in order and skips absent, null and empty ones', () => {
    expect(compatPhoneOf({ mobile_phone: '+16505551234', phone: UK })).toEqual({ ok: true, value: UK });
    expect(compatPhoneOf({ msisdn: UK, to: '+16505551234' })).toEqual({ ok: true, value: '+16505551234' });
    expect(compatPhoneOf({ phone: '', phone_number: null, mobile: UK })).toEqual({ ok: true, value: UK });
    expect(compatPhoneOf({})).toEqual({ ok: true, value: null });
    expect(compatPhoneOf({ tel: UK, cell: UK })).toEqual({ ok: true, value: null });
  });

  it('reads own fields only', () => {
    expect(compatPhoneOf(Object.create({ phone: UK }) as Obj)).toEqual({ ok: true, value: null });
  });

  it('refuses a present field that is not a phone number, naming the field and not falling back', () => {
    expect(compatPhoneOf({ phone: 'call-me-maybe', phone_number: UK })).toEqual({ ok: false, message: 'phone is not a phone number in international format' });
  });

  it.each([
    ['letters', 'SECRETabc'],
    ['a national number with a trunk 0', '07700900123'],
    ['too short', '+44770'],
    ['too long', '+4477009001234567'],
    ['a trailing letter', '+447700900123x'],
    ['a plus alone', '+'],
    ['unbalanced parentheses', '+44 (7700 900123'],
    ['longer than 64 characters', `+44${' '.repeat(70)}7700900123`],
    ['a zero country code', '+0447700900123'],
    ['00 then a zero', '000447700900123'],
  ])('refuses %s, naming the field only', (_name, raw) => {
    for (const field of COMPAT_PHONE_FIELDS) {
      const message = refused(compatPhoneOf({ [field]: raw }), raw, raw.trim());
      expect(message).toBe(`${field} is not a phone number in international format`);
    }
  });

  it.each([
    ['a boolean', true],
    ['an object', { number: UK }],
    ['an array', [UK]],
    ['a fraction', 4477009001.5],
    ['an unsafe integer', 2 ** 60],
  ])('refuses %s as the wrong type', (_name, value) => {
    expect(compatPhoneOf({ phone_number: value })).toEqual({ ok: false, message: 'phone_number must be a string' });
  });

  it('refuses a number that is not a phone number, without echoing it', () => {
    expect(refused(compatPhoneOf({ mobile: 123 }), '123')).toBe('mobile is not a phone number in international format');
  });
});

describe('readCompatContact', () => {
  const docsExample = {
    phone_number: '+44 7700 900123',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    external_reference_id: 'crm-100',
    source_type: 'hubspot',
    person_properties: { plan: 'gold', seats: 3 },
  };
  const docsContact = contact({
    phone: UK,
    externalReferenceId: 'crm-100',
    sourceType: 'hubspot',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    properties: { plan: 'gold', seats: 3 },
  });

  it('reads the flattened docs example field by field', () => {
    const c = accepted(readCompatContact(docsExample));
    expect(c.phone).toBe(UK);
    expect(c.externalReferenceId).toBe('crm-100');
    expect(c.sourceType).toBe('hubspot');
    expect(c.name).toBe('Ada Lovelace');
    expect(c.email).toBe('ada@example.com');
    expect(c.locale).toBeNull();
    expect(c.properties).toEqual({ plan: 'gold', seats: 3 });
    expect(c).toEqual(docsContact);
  });

  it.each(COMPAT_CONTACT_CONTAINERS.map((c) => [c]))('reads the same contact nested in %s', (container) => {
    expect(readCompatContact({ [container]: docsExample })).toEqual({ ok: true, value: docsContact });
  });

  it('uses the first container that is an object', () => {
    expect(compatContactObject({ contact: 'x', person: [1], user: null, customer: { a: 1 } })).toEqual({ a: 1 });
    expect(readCompatContact({ contact: 'Ada', phone: UK })).toEqual({ ok: true, value: contact({ phone: UK }) });
    expect(readCompatContact({ contact: [UK], person: { phone: UK } })).toEqual({ ok: true, value: contact({ phone: UK }) });
    expect(readCompatContact({ customer: { name: 'Cu' }, user: { name: 'Us' } })).toEqual({ ok: true, value: contact({ name: 'Us' }) });
  });

  it('lets the nested contact win and the top level fill what it lacks', () => {
    const c = accepted(
      readCompatContact({
        contact: { phone: UK, name: 'Nested', person_properties: { plan: 'gold' } },
        phone: '+16505551234',
        name: 'Top',
        email: 'top@example.com',
        locale: 'en_GB',
        person_properties: { plan: 'silver' },
      }),
    );
    expect(c).toEqual(contact({ phone: UK, name: 'Nested', email: 'top@example.com', locale: 'en_GB', properties: { plan: 'gold' } }));
  });

  it('fills the phone from the top level when the nested contact has none', () => {
    expect(readCompatContact({ contact: { first_name: 'Ada' }, msisdn: '447700900123' })).toEqual({ ok: true, value: contact({ phone: UK, name: 'Ada' }) });
  });

  it('takes person_properties from the top level when the nested contact has none, and properties inside a nested contact', () => {
    expect(accepted(readCompatContact({ contact: { phone: UK }, person_properties: { a: 1 } })).properties).toEqual({ a: 1 });
    expect(accepted(readCompatContact({ contact: { phone: UK, properties: { b: true } } })).properties).toEqual({ b: true });
    expect(accepted(readCompatContact({ contact: { phone: UK, person_properties: { a: 1 }, properties: { b: true } } })).properties).toEqual({ a: 1 });
  });

  it('reads the documented aliases', () => {
    expect(
      accepted(readCompatContact({ externalReferenceId: 'x1', sourceType: 'crm', email_address: 'a@b.co', language: 'pt_BR', full_name: 'Full Name' })),
    ).toEqual(contact({ externalReferenceId: 'x1', sourceType: 'crm', email: 'a@b.co', locale: 'pt_BR', name: 'Full Name' }));
    expect(accepted(readCompatContact({ external_id: 'x2', fullName: 'Camel Case' }))).toEqual(contact({ externalReferenceId: 'x2', name: 'Camel Case' }));
    expect(accepted(readCompatContact({ firstName: 'Grace', lastName: 'Hopper' })).name).toBe('Grace Hopper');
  });

  it('prefers the first alias that has a value', () => {
    expect(accepted(readCompatContact({ external_id: 'later', external_reference_id: 'first' })).externalReferenceId).toBe('first');
    expect(accepted(readCompatContact({ external_reference_id: '  ', external_id: 'fallback' })).externalReferenceId).toBe('fallback');
    expect(accepted(readCompatContact({ language: 'fr', locale: 'de' })).locale).toBe('de');
  });

  it('builds the name from name, else first_name and last_name', () => {
    const nameOf = (o: Obj) => accepted(readCompatContact(o)).name;
    expect(nameOf({ name: 'Ada King', first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada King');
    expect(nameOf({ first_name: ' Ada ', last_name: ' Lovelace ' })).toBe('Ada Lovelace');
    expect(nameOf({ first_name: 'Ada' })).toBe('Ada');
    expect(nameOf({ last_name: 'Lovelace' })).toBe('Lovelace');
    expect(nameOf({ name: '   ', first_name: 'Ada' })).toBe('Ada');
    expect(nameOf({ first_name: '', last_name: '  ' })).toBeNull();
    expect(nameOf({ contact: { first_name: 'Nested' }, last_name: 'Top' })).toBe('Nested Top');
  });

  it('trims text and reads JSON numbers as text (except e-mail)', () => {
    expect(accepted(readCompatContact({ external_reference_id: 12345, source_type: 7, name: 42, locale: ' en ' }))).toEqual(
      contact({ externalReferenceId: '12345', sourceType: '7', name: '42', locale: 'en' }),
    );
    expect(readCompatContact({ email: 12345 })).toEqual({ ok: false, message: 'email must be a string' });
  });

  it.each([
    ['external_reference_id', { a: 'SECRET' }],
    ['externalReferenceId', ['SECRET']],
    ['source_type', true],
    ['name', { first: 'SECRET' }],
    ['first_name', ['SECRET']],
    ['lastName', false],
    ['email', ['SECRET@example.com']],
    ['locale', { tag: 'SECRET' }],
  ])('refuses %s of the wrong type, naming the field', (field, value) => {
    expect(refused(readCompatContact({ phone: UK, [field]: value }), 'SECRET')).toBe(`${field} must be a string`);
    expect(refused(readCompatContact({ contact: { phone: UK, [field]: value } }), 'SECRET')).toBe(`${field} must be a string`);
  });

  it.each(['external_reference_id', 'external_id', 'source_type', 'name', 'full_name', 'first_name', 'last_name', 'email', 'locale', 'language'])(
    'refuses NUL characters in %s',
    (field) => {
      const value = field === 'email' ? 'SECRET\u0000@example.com' : 'SECRET\u0000x';
      expect(refused(readCompatContact({ phone: UK, [field]: value }), 'SECRET')).toBe(`${field} must not contain NUL characters`);
    },
  );

  it.each([
    ['external_reference_id', 256],
    ['external_id', 256],
    ['source_type', 64],
    ['name', 256],
    ['first_name', 128],
    ['lastName', 128],
    ['locale', 15],
  ])('limits %s to %i characters (code points, after trimming)', (field, max) => {
    expect(accepted(readCompatContact({ phone: UK, [field]: `  ${'a'.repeat(max)}  ` }))).toBeTruthy();
    expect(accepted(readCompatContact({ phone: UK, [field]: '😀'.repeat(max) }))).toBeTruthy();
    const long = 'S'.repeat(max + 1);
    expect(refused(readCompatContact({ phone: UK, [field]: long }), long)).toBe(`${field} must be at most ${max} characters`);
  });

  it('limits email to 320 characters and checks its shape', () => {
    const at = '@example.com';
    expect(accepted(readCompatContact({ email: 'a'.repeat(320 - at.length) + at })).email).toBe('a'.repeat(308) + at);
    const long = 'b'.repeat(321 - at.length) + at;
    expect(refused(readCompatContact({ email: long }), long)).toBe('email must be at most 320 characters');
    for (const bad of ['not-an-email', 'two@@example.com', 'sp ace@example.com', '@example.com', 'ada@']) {
      expect(refused(readCompatContact({ email: bad }), bad)).toBe('email is not an e-mail address');
    }
    expect(accepted(readCompatContact({ email: ' ada@example.com ' })).email).toBe('ada@example.com');
  });

  it('refuses an invalid phone number, naming the field and never the value', () => {
    expect(refused(readCompatContact({ phone_number: '555-SECRET' }), '555-SECRET')).toBe('phone_number is not a phone number in international format');
    expect(refused(readCompatContact({ user: { mobile: '12' } }), '12')).toBe('mobile is not a phone number in international format');
  });

  it('refuses an invalid nested phone even when the top level has a valid one', () => {
    expect(readCompatContact({ contact: { phone: 'nope' }, phone: UK })).toEqual({ ok: false, message: 'phone is not a phone number in international format' });
  });

  describe('person_properties', () => {
    const props = (v: unknown) => readCompatContact({ phone: UK, person_properties: v });

    it('keeps strings, finite numbers, booleans and null (null removes a property)', () => {
      expect(accepted(props({ plan: 'gold', seats: 3, ratio: -0.5, vip: false, gone: null, emoji: '😀' })).properties).toEqual({
        plan: 'gold',
        seats: 3,
        ratio: -0.5,
        vip: false,
        gone: null,
        emoji: '😀',
      });
      expect(accepted(props(null)).properties).toEqual({});
      expect(accepted(props({})).properties).toEqual({});
    });

    it.each([
      ['a string', 'gold'],
      ['an array', ['gold']],
      ['a number', 3],
    ])('refuses %s instead of an object', (_name, v) => {
      expect(props(v)).toEqual({ ok: false, message: 'person_properties must be an object' });
    });

    it.each(['__proto__', 'constructor', 'prototype'])('refuses the reserved key %s', (key) => {
      const b = body(`{"phone":"${UK}","person_properties":{"plan":"gold","${key}":{"polluted":true}}}`);
      expect(Object.prototype.hasOwnProperty.call(b.person_properties, key)).toBe(true);
      expect(readCompatContact(b)).toEqual({ ok: false, message: 'person_properties has a key that is empty, too long or reserved' });
      expect(({} as Obj).polluted).toBeUndefined();
    });

    it('refuses __proto__ inside a nested contact', () => {
      const b = body(`{"contact":{"phone":"${UK}","properties":{"__proto__":"x"}}}`);
      expect(readCompatContact(b)).toEqual({ ok: false, message: 'person_properties has a key that is empty, too long or reserved' });
    });

    it('refuses empty, too long and NUL keys', () => {
      const msg = 'person_properties has a key that is empty, too long or reserved';
      expect(props({ '': 1 })).toEqual({ ok: false, message: msg });
      expect(props({ ['k'.repeat(129)]: 1 })).toEqual({ ok: false, message: msg });
      expect(props({ 'a\u0000b': 1 })).toEqual({ ok: false, message: msg });
      expect(accepted(props({ ['k'.repeat(128)]: 1 })).properties).toEqual({ ['k'.repeat(128)]: 1 });
    });

    it('holds at most 100 keys', () => {
      const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
      expect(Object.keys(accepted(props(keys(100))).properties)).toHaveLength(100);
      expect(props(keys(101))).toEqual({ ok: false, message: 'person_properties may hold at most 100 keys' });
    });

    it('refuses NUL, oversized and non-scalar values, naming the key and never the value', () => {
      expect(refused(props({ plan: 'SECRET\u0000' }), 'SECRET')).toBe('person_properties.plan must not contain NUL characters');
      const long = 'S'.repeat(1025);
      expect(refused(props({ bio: long }), long)).toBe('person_properties.bio must be at most 1024 characters');
      expect(accepted(props({ bio: '😀'.repeat(1024) })).properties).toEqual({ bio: '😀'.repeat(1024) });
      expect(refused(props({ tags: ['SECRET'] }), 'SECRET')).toBe('person_properties.tags must be a string, number, boolean or null');
      expect(refused(props({ addr: { city: 'SECRET' } }), 'SECRET')).toBe('person_properties.addr must be a string, number, boolean or null');
    });
  });
});

describe('parseCompatContactUpsert', () => {
  it('accepts a phone number alone', () => {
    expect(parseCompatContactUpsert({ phone: '447700900123' })).toEqual({ ok: true, value: contact({ phone: UK }) });
  });

  it('accepts an external reference id alone', () => {
    expect(parseCompatContactUpsert({ person: { external_reference_id: 'crm-1', name: 'Ada' } })).toEqual({
      ok: true,
      value: contact({ externalReferenceId: 'crm-1', name: 'Ada' }),
    });
  });

  it('refuses a contact with neither, listing the phone fields', () => {
    const msg = `Send a phone number (${PHONE_LIST}) or an external_reference_id`;
    expect(parseCompatContactUpsert({})).toEqual({ ok: false, message: msg });
    expect(parseCompatContactUpsert({ name: 'Ada', email: 'ada@example.com' })).toEqual({ ok: false, message: msg });
    expect(parseCompatContactUpsert({ contact: { phone: '', external_reference_id: '   ' } })).toEqual({ ok: false, message: msg });
  });

  it('passes a field refusal through', () => {
    expect(parseCompatContactUpsert({ phone: UK, source_type: 'x'.repeat(65) })).toEqual({ ok: false, message: 'source_type must be at most 64 characters' });
  });
});

describe('parseCompatTrigger', () => {
  it('reads the docs example: the phone, and every other key as personalization', () => {
    expect(parseCompatTrigger({ phone: UK, first_name: 'Grace', coupon: 'WELCOME10' })).toEqual({
      ok: true,
      value: { phone: UK, personalization: { first_name: 'Grace', coupon: 'WELCOME10' } },
    });
  });

  it('keeps non-scalar personalization as sent', () => {
    expect(accepted(parseCompatTrigger({ msisdn: 447700900123, cart: { items: [1, 2] }, n: 0, flag: false, none: null })).personalization).toEqual({
      cart: { items: [1, 2] },
      n: 0,
      flag: false,
      none: null,
    });
  });

  it('reads a nested contact: its fields are personalization too, its phone is not', () => {
    expect(parseCompatTrigger({ contact: { phone_number: UK, first_name: 'Grace' }, coupon: 'X' })).toEqual({
      ok: true,
      value: { phone: UK, personalization: { first_name: 'Grace', coupon: 'X' } },
    });
  });

  it('spreads person_properties into personalization', () => {
    expect(accepted(parseCompatTrigger({ phone: UK, person_properties: { plan: 'gold' } })).personalization).toEqual({ plan: 'gold' });
  });

  it('drops phone fields, event ids and event_name from personalization', () => {
    const b: Obj = { phone: UK, event_name: 'x', coupon: 'C' };
    for (const f of COMPAT_PHONE_FIELDS) if (f !== 'phone') b[f] = '+16505551234';
    for (const f of COMPAT_EVENT_ID_FIELDS) b[f] = 'id-1';
    expect(parseCompatTrigger(b)).toEqual({ ok: true, value: { phone: UK, personalization: { coupon: 'C' } } });
  });

  it('requires a phone number', () => {
    const msg = `Send the contact's phone number in one of: ${PHONE_LIST}`;
    expect(parseCompatTrigger({ first_name: 'Grace' })).toEqual({ ok: false, message: msg });
    expect(parseCompatTrigger({ external_reference_id: 'crm-1' })).toEqual({ ok: false, message: msg });
    expect(parseCompatTrigger({ contact: { phone: null } })).toEqual({ ok: false, message: msg });
  });

  it('refuses an invalid phone number without echoing it', () => {
    expect(refused(parseCompatTrigger({ to: 'SECRET-555' }), 'SECRET')).toBe('to is not a phone number in international format');
  });
});

describe('personalizationOf', () => {
  it('drops reserved keys at the top level, in containers and in person_properties', () => {
    const b = body('{"__proto__":{"a":1},"constructor":1,"prototype":2,"contact":{"__proto__":3,"ok":1},"person_properties":{"constructor":4,"p":2},"x":3}');
    const p = personalizationOf(b);
    expect(p).toEqual({ ok: 1, p: 2, x: 3 });
    expect(Object.keys(p)).toEqual(['ok', 'p', 'x']);
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  });

  it('keeps a top-level key over a nested one whatever the order', () => {
    expect(personalizationOf({ first_name: 'Top', contact: { first_name: 'Nested' } })).toEqual({ first_name: 'Top' });
    expect(personalizationOf({ contact: { first_name: 'Nested' }, first_name: 'Top' })).toEqual({ first_name: 'Top' });
  });

  it('spreads person_properties without identity-named keys, like every other source', () => {
    // A property named like a phone or event-id field would otherwise read as one in templates.
    expect(personalizationOf({ phone: UK, person_properties: { phone: 'home', event_id: 'e', plan: 'gold' } })).toEqual({ plan: 'gold' });
  });

  it('keeps a container that is not an object as a plain key', () => {
    expect(personalizationOf({ contact: 'Ada', user: [1], person: null })).toEqual({ contact: 'Ada', user: [1], person: null });
  });

  it("drops a nested contact's phone fields", () => {
    expect(personalizationOf({ customer: { phone: UK, msisdn: 'x', mobile_phone: 'y', first_name: 'Ada' } })).toEqual({ first_name: 'Ada' });
  });

  // Own keys only: an `in` check would also see Object.prototype and drop nested keys named like
  // its members (toString, valueOf, ...), which the top level keeps.
  it('keeps nested keys named like Object.prototype members (toString, valueOf)', () => {
    expect(personalizationOf({ contact: { toString: 'x', valueOf: 'y', a: 1 } })).toEqual({ toString: 'x', valueOf: 'y', a: 1 });
  });
});

describe('validateEventName', () => {
  it('accepts a name of 1 to 128 characters (code points) without whitespace', () => {
    expect(validateEventName('order_shipped')).toEqual({ ok: true, value: 'order_shipped' });
    expect(validateEventName('x')).toEqual({ ok: true, value: 'x' });
    expect(validateEventName('a'.repeat(128))).toEqual({ ok: true, value: 'a'.repeat(128) });
    expect(validateEventName('😀'.repeat(128))).toEqual({ ok: true, value: '😀'.repeat(128) });
    expect(validateEventName('Order.Shipped-v2:eu/1')).toEqual({ ok: true, value: 'Order.Shipped-v2:eu/1' });
  });

  it('refuses more than 128 characters', () => {
    expect(validateEventName('a'.repeat(129))).toEqual({ ok: false, message: 'event_name must be at most 128 characters' });
    expect(validateEventName('😀'.repeat(129))).toEqual({ ok: false, message: 'event_name must be at most 128 characters' });
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
  ])('requires it (%s)', (_name, v) => {
    expect(validateEventName(v)).toEqual({ ok: false, message: 'event_name is required' });
  });

  it.each([
    ['a number', 42],
    ['a boolean', true],
    ['an object', { name: 'order_shipped' }],
    ['an array', ['order_shipped']],
  ])('refuses %s', (_name, v) => {
    expect(validateEventName(v)).toEqual({ ok: false, message: 'event_name must be a string' });
  });

  it.each([
    ['space', ' '],
    ['tab', '\t'],
    ['newline', '\n'],
    ['carriage return', '\r'],
    ['vertical tab', '\v'],
    ['form feed', '\f'],
    ['no-break space U+00A0', '\u00a0'],
    ['ogham space U+1680', '\u1680'],
    ['em space U+2003', '\u2003'],
    ['thin space U+2009', '\u2009'],
    ['zero-width space U+200B', '\u200b'],
    ['line separator U+2028', '\u2028'],
    ['paragraph separator U+2029', '\u2029'],
    ['narrow no-break space U+202F', '\u202f'],
    ['ideographic space U+3000', '\u3000'],
    ['zero-width no-break space U+FEFF', '\ufeff'],
  ])('refuses a %s anywhere in it', (_name, ws) => {
    for (const v of [`order${ws}shipped`, `${ws}order`, `order${ws}`, ws]) {
      expect(validateEventName(v)).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
    }
  });

  it('refuses a NUL character', () => {
    expect(validateEventName('order\u0000shipped')).toEqual({ ok: false, message: 'event_name must not contain NUL characters' });
  });

  // U+0085 (NEXT LINE) is Unicode White_Space but not in JavaScript's \s.
  it('refuses NEXT LINE U+0085 (Unicode White_Space)', () => {
    expect(validateEventName('order\u0085shipped')).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
  });
});

describe('parseCompatPartnerEvent', () => {
  it('reads the nested docs example', () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'order_shipped', contact: { phone_number: UK }, properties: { tracking: 'TRK1' } }));
    expect(e.eventName).toBe('order_shipped');
    expect(e.contact).toEqual(contact({ phone: UK }));
    expect(e.personalization.tracking).toBe('TRK1');
    expect(e.personalization).toEqual({ properties: { tracking: 'TRK1' }, tracking: 'TRK1' });
  });

  it('reads the flattened docs example', () => {
    expect(parseCompatPartnerEvent({ event_name: 'order_shipped', phone: UK, tracking: 'TRK1' })).toEqual({
      ok: true,
      value: { eventName: 'order_shipped', contact: contact({ phone: UK }), personalization: { tracking: 'TRK1' } },
    });
  });

  it('accepts eventName as an alias', () => {
    const e = accepted(parseCompatPartnerEvent({ eventName: 'signed_up', phone: UK }));
    expect(e.eventName).toBe('signed_up');
    expect(e.contact).toEqual(contact({ phone: UK }));
  });

  it('accepts a contact known only by external_reference_id', () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'x', customer: { external_reference_id: 'crm-9', email: 'c@example.com' } }));
    expect(e.contact).toEqual(contact({ externalReferenceId: 'crm-9', email: 'c@example.com' }));
    expect(e.personalization).toEqual({ external_reference_id: 'crm-9', email: 'c@example.com' });
  });

  it('merges properties, else event_properties, over the top-level keys', () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'x', contact: { phone: UK }, tracking: 'top', properties: { tracking: 'prop' } }));
    expect(e.personalization.tracking).toBe('prop');
    const ep = accepted(parseCompatPartnerEvent({ event_name: 'x', contact: { phone: UK }, event_properties: { total: 12.5, items: [{ sku: 'A' }] } }));
    expect(ep.personalization.total).toBe(12.5);
    expect(ep.personalization.items).toEqual([{ sku: 'A' }]);
    const both = accepted(parseCompatPartnerEvent({ event_name: 'x', contact: { phone: UK }, properties: { a: 1 }, event_properties: { b: 2 } }));
    expect(both.personalization.a).toBe(1);
    expect(both.personalization.b).toBeUndefined();
  });

  it("drops identity keys inside properties (a property cannot pose as the contact's phone)", () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'x', contact: { phone: UK }, properties: { phone: '+16505551234', event_id: 'e', k: 1 } }));
    expect(e.personalization.phone).toBeUndefined();
    expect(e.personalization.event_id).toBeUndefined();
    expect(e.personalization.k).toBe(1);
  });

  it('checks event_name before the contact', () => {
    expect(parseCompatPartnerEvent({ event_name: 'order shipped', phone: 'bad' })).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
    expect(parseCompatPartnerEvent({ phone: UK })).toEqual({ ok: false, message: 'event_name is required' });
    expect(parseCompatPartnerEvent({ event_name: 7, phone: UK })).toEqual({ ok: false, message: 'event_name must be a string' });
    expect(parseCompatPartnerEvent({ event_name: 'order\u200bshipped', phone: UK })).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
    expect(parseCompatPartnerEvent({ event_name: 'order\u00a0shipped', phone: UK })).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
    expect(parseCompatPartnerEvent({ event_name: 'order\tshipped', phone: UK })).toEqual({ ok: false, message: 'event_name must not contain whitespace' });
  });

  it('requires a phone number or an external reference id', () => {
    expect(parseCompatPartnerEvent({ event_name: 'x', name: 'Ada' })).toEqual({
      ok: false,
      message: `Send the contact's phone number (${PHONE_LIST}) or external_reference_id, flattened or in a contact object`,
    });
  });

  it('refuses an invalid nested phone, naming the field only', () => {
    expect(refused(parseCompatPartnerEvent({ event_name: 'x', contact: { phone_number: '+44 SECRET' } }), 'SECRET')).toBe(
      'phone_number is not a phone number in international format',
    );
  });

  // docs/compat.md: `properties` is person_properties only inside a nested contact; a flattened
  // body's top-level `properties` belongs to the event.
  it('flattened: non-scalar event properties are personalization, not person_properties', () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'order_shipped', phone: UK, properties: { items: [{ sku: 'A1' }] } }));
    expect(e.personalization.items).toEqual([{ sku: 'A1' }]);
  });
  it('flattened: event properties are not stored on the contact', () => {
    const e = accepted(parseCompatPartnerEvent({ event_name: 'order_shipped', phone: UK, properties: { tracking: 'TRK1' } }));
    expect(e.contact.properties).toEqual({});
  });
});

describe('compatEventIdOf', () => {
  it.each(COMPAT_EVENT_ID_FIELDS.map((f) => [f]))('reads %s', (field) => {
    expect(compatEventIdOf({ [field]: 'evt-1' })).toBe('evt-1');
    expect(compatEventIdOf({ [field]: 123 })).toBe('123');
  });

  it('tries the fields in order and skips values that are not sane tokens', () => {
    expect(compatEventIdOf({ trigger_event_id: 't', idempotency_key: 'k' })).toBe('k');
    expect(compatEventIdOf({ idempotency_key: 'has space', event_id: 'e1' })).toBe('e1');
    expect(compatEventIdOf({ idempotency_key: 'é', eventId: 'e2' })).toBe('e2');
    expect(compatEventIdOf({ idempotency_key: '', event_id: 1.5, eventId: 2 ** 60, trigger_event_id: {} })).toBeNull();
    expect(compatEventIdOf({ idempotency_key: 'a\u0000' })).toBeNull();
    expect(compatEventIdOf({})).toBeNull();
  });

  it('accepts up to 256 printable ASCII characters', () => {
    expect(compatEventIdOf({ event_id: '!'.repeat(256) })).toBe('!'.repeat(256));
    expect(compatEventIdOf({ event_id: 'x'.repeat(257) })).toBeNull();
  });
});

describe('readCompatSummary', () => {
  const full: CompatEventSummary = {
    compat: 'journey_trigger',
    route: '/compat/journey-trigger/:legacyPath',
    mappingId: 'map_1',
    journeyId: 'jrn_1',
    contactId: null,
    eventName: null,
    triggerKey: 'key:abc',
    rootEventId: 'evt_root',
  };

  it('reads a stored summary back', () => {
    expect(readCompatSummary(full)).toEqual(full);
    expect(readCompatSummary(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });

  it('reads optional fields that are not strings as null', () => {
    expect(readCompatSummary({ compat: 'partner_event', route: '/r', rootEventId: 'e', mappingId: 1, journeyId: {}, contactId: [], eventName: true })).toEqual({
      compat: 'partner_event',
      route: '/r',
      mappingId: null,
      journeyId: null,
      contactId: null,
      eventName: null,
      triggerKey: null,
      rootEventId: 'e',
    });
  });

  it('is null for anything that is not a compat summary', () => {
    for (const v of [null, undefined, 'journey_trigger', 1, [], [full], { ...full, compat: 'other' }, { ...full, route: 1 }, { ...full, rootEventId: null }]) {
      expect(readCompatSummary(v)).toBeNull();
    }
    const { route: _route, ...noRoute } = full;
    expect(readCompatSummary(noRoute)).toBeNull();
  });

  it('isCompatTopic knows the three topics only', () => {
    expect(['contact_upsert', 'journey_trigger', 'partner_event'].every(isCompatTopic)).toBe(true);
    expect([undefined, 'Contact_upsert', 'toString', 1, null].some(isCompatTopic)).toBe(false);
  });
});

describe('normalizeCompatEvent', () => {
  const summary = (s: Partial<CompatEventSummary>): CompatEventSummary => ({
    compat: 'contact_upsert',
    route: '/compat/contact',
    mappingId: null,
    journeyId: null,
    contactId: null,
    eventName: null,
    triggerKey: null,
    rootEventId: 'evt_1',
    ...s,
  });
  const json = (o: unknown) => bytes(JSON.stringify(o));

  it('reads a contact upsert', () => {
    const s = summary({ contactId: 'ctr_1' });
    expect(normalizeCompatEvent(s, json({ phone: '447700900123', name: 'Ada' }))).toEqual({
      ok: true,
      value: { family: { family: 'compat.contact_upsert', contactId: 'ctr_1', contact: contact({ phone: UK, name: 'Ada' }) }, summary: s },
    });
  });

  it('reads a journey trigger', () => {
    const s = summary({ compat: 'journey_trigger', journeyId: 'jrn_1', mappingId: 'map_1', triggerKey: 'body:abc' });
    expect(normalizeCompatEvent(s, json({ phone: UK, first_name: 'Grace' }))).toEqual({
      ok: true,
      value: { family: { family: 'compat.journey_trigger', journeyId: 'jrn_1', phone: UK, personalization: { first_name: 'Grace' } }, summary: s },
    });
  });

  it('reads a partner event', () => {
    const s = summary({ compat: 'partner_event', eventName: 'order_shipped' });
    expect(normalizeCompatEvent(s, json({ event_name: 'order_shipped', phone: UK, tracking: 'T' }))).toEqual({
      ok: true,
      value: {
        family: { family: 'compat.partner_event', eventName: 'order_shipped', contact: contact({ phone: UK }), personalization: { tracking: 'T' } },
        summary: s,
      },
    });
  });

  it('refuses an event without a compat summary', () => {
    for (const s of [null, {}, 'contact_upsert', { compat: 'contact_upsert' }]) {
      expect(normalizeCompatEvent(s, json({ phone: UK }))).toEqual({ ok: false, message: 'the stored event has no compat summary' });
    }
  });

  it('refuses summaries missing what their topic needs', () => {
    expect(normalizeCompatEvent(summary({}), json({ phone: UK }))).toEqual({ ok: false, message: 'the stored contact upsert names no contact' });
    expect(normalizeCompatEvent(summary({ compat: 'journey_trigger' }), json({ phone: UK }))).toEqual({
      ok: false,
      message: 'the stored trigger names no journey',
    });
  });

  it('passes body refusals through', () => {
    const s = summary({ compat: 'journey_trigger', journeyId: 'jrn_1' });
    expect(normalizeCompatEvent(s, new Uint8Array(0))).toEqual({ ok: false, message: 'The body is empty: send a JSON object' });
    expect(normalizeCompatEvent(s, Uint8Array.from([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, message: 'The body is not valid UTF-8' });
    expect(normalizeCompatEvent(s, bytes('[]'))).toEqual({ ok: false, message: 'The body must be a JSON object' });
    expect(normalizeCompatEvent(s, bytes(nestedObjects(33)))).toEqual({ ok: false, message: 'The body is nested deeper than 32 levels' });
    expect(normalizeCompatEvent(s, json({ first_name: 'x' }))).toEqual({ ok: false, message: `Send the contact's phone number in one of: ${PHONE_LIST}` });
    expect(normalizeCompatEvent(summary({ compat: 'partner_event' }), json({ event_name: 'a b', phone: UK }))).toEqual({
      ok: false,
      message: 'event_name must not contain whitespace',
    });
    expect(normalizeCompatEvent(summary({ contactId: 'ctr_1' }), json({ phone: UK, person_properties: { a: [] } }))).toEqual({
      ok: false,
      message: 'person_properties.a must be a string, number, boolean or null',
    });
  });
});
