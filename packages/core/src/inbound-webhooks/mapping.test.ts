import { describe, expect, it } from 'vitest';
import {
  applyMapping,
  normalizeRecipientPhone,
  sanitizeMappedRequest,
  validateMapping,
  type CompiledMapping,
  type FixedTemplate,
  type MappingIssue,
  type MappingIssueCode,
} from './mapping';

const NO_FIXED: FixedTemplate = {};
const FIXED: FixedTemplate = { templateName: 'order_update', templateLocale: 'en_US' };

function compile(mapping: unknown, fixed: FixedTemplate = NO_FIXED): CompiledMapping {
  const v = validateMapping(mapping, fixed);
  if (!v.ok) throw new Error(`expected a valid mapping: ${JSON.stringify(v.issues)}`);
  return v.mapping;
}
function issuesOf(mapping: unknown, fixed: FixedTemplate = NO_FIXED): MappingIssue[] {
  const v = validateMapping(mapping, fixed);
  if (v.ok) throw new Error('expected issues');
  return v.issues;
}
const codes = (issues: MappingIssue[]): [MappingIssueCode, string | undefined][] => issues.map((i) => [i.code, i.target]);

const payload = {
  customer: { phone: '+44 20 7946 0958', name: 'Ada Lovelace', 'first-name': 'Ada', $ref: 'r1' },
  order: { id: 'ORD-991', total: 42.5, count: 3, paid: true, big: 9007199254740991, notes: null, tags: ['a', 'b'] },
  items: [{ sku: 'SKU-1' }, { sku: 'SKU-2' }],
  invoice: { url: 'https://files.example.com/inv/991.pdf', file: 'invoice-991.pdf' },
  tpl: { name: 'order_update', locale: 'it' },
};

describe('validateMapping', () => {
  it('compiles every expression kind and every target', () => {
    const m = compile({
      to: 'path:customer.phone',
      templateName: 'tpl.name',
      templateLocale: 'json:"it"',
      externalId: 'order.id',
      'parameters.header.document.link': 'path:invoice.url',
      'parameters.header.document.filename': 'literal:invoice.pdf',
      'parameters.body.1': 'customer.name',
      'parameters.body.2': 'items[1].sku',
      'parameters.body.3': 'json:12',
      'parameters.body.4': 'json:true',
    });
    const byTarget = Object.fromEntries(m.entries.map((e) => [e.target, e.expression]));
    expect(byTarget.to).toEqual({ kind: 'path', segments: ['customer', 'phone'], source: 'path:customer.phone' });
    expect(byTarget.templateName).toEqual({ kind: 'path', segments: ['tpl', 'name'], source: 'tpl.name' });
    expect(byTarget.templateLocale).toEqual({ kind: 'literal', value: 'it', source: 'json:"it"' });
    expect(byTarget['parameters.header.document.filename']).toEqual({ kind: 'literal', value: 'invoice.pdf', source: 'literal:invoice.pdf' });
    expect(byTarget['parameters.body.2']).toEqual({ kind: 'path', segments: ['items', 1, 'sku'], source: 'items[1].sku' });
    expect(byTarget['parameters.body.3']).toMatchObject({ kind: 'literal', value: '12' });
    expect(byTarget['parameters.body.4']).toMatchObject({ kind: 'literal', value: 'true' });
  });

  it('reads numeric dot segments and bracket indexes alike, and root-array paths', () => {
    const a = compile({ to: 'items.0.sku', templateName: 'a[0][1]', templateLocale: '[2].x' });
    expect(a.entries.map((e) => (e.expression.kind === 'path' ? e.expression.segments : null))).toEqual([
      ['items', 0, 'sku'],
      ['a', 0, 1],
      [2, 'x'],
    ]);
  });

  it('needs to, and templateName/templateLocale unless the configuration fixes them', () => {
    expect(codes(issuesOf({}))).toEqual([
      ['missing_target', 'to'],
      ['missing_target', 'templateName'],
      ['missing_target', 'templateLocale'],
    ]);
    expect(codes(issuesOf({}, FIXED))).toEqual([['missing_target', 'to']]);
    expect(codes(issuesOf({ to: 'p' }, { templateName: 'x' }))).toEqual([['missing_target', 'templateLocale']]);
    expect(validateMapping({ to: 'p' }, FIXED).ok).toBe(true);
  });

  it('refuses unknown targets, bad body parameter numbers and gaps', () => {
    const base = { to: 'p' };
    expect(codes(issuesOf({ ...base, from: 'x', 'parameters.body.0': 'x', 'parameters.body.01': 'x', 'parameters.body.101': 'x' }, FIXED))).toEqual([
      ['unknown_target', 'from'],
      ['unknown_target', 'parameters.body.0'],
      ['unknown_target', 'parameters.body.01'],
      ['unknown_target', 'parameters.body.101'],
    ]);
    expect(validateMapping({ ...base, 'parameters.body.100': 'x' }, FIXED).ok).toBe(false); // 100 alone is a gap
    expect(codes(issuesOf({ ...base, 'parameters.body.1': 'x', 'parameters.body.3': 'x' }, FIXED))).toEqual([['body_parameters_not_contiguous', undefined]]);
    expect(codes(issuesOf({ ...base, 'parameters.body.2': 'x' }, FIXED))).toEqual([['body_parameters_not_contiguous', undefined]]);
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`parameters.body.${i + 1}`, `literal:v${i}`]));
    expect(validateMapping({ ...base, ...hundred }, FIXED).ok).toBe(true);
  });

  it('needs the document link when the filename is mapped', () => {
    expect(codes(issuesOf({ to: 'p', 'parameters.header.document.filename': 'f' }, FIXED))).toEqual([['missing_target', 'parameters.header.document.link']]);
    expect(validateMapping({ to: 'p', 'parameters.header.document.link': 'l' }, FIXED).ok).toBe(true);
  });

  it('refuses a mapping that is not an object, or has more than 120 entries', () => {
    for (const m of [null, undefined, 'to', 42, [], [['to', 'p']], new Date()]) expect(codes(issuesOf(m, FIXED))).toEqual([['invalid_mapping', undefined]]);
    const many = Object.fromEntries(Array.from({ length: 121 }, (_, i) => [`x${i}`, 'p']));
    expect(codes(issuesOf(many, FIXED))).toEqual([['invalid_mapping', undefined]]);
  });

  it('refuses bad expressions', () => {
    const bad = [
      '',
      'path:',
      'literal:',
      'json:',
      'json:{"a":1}',
      'json:[1]',
      'json:null',
      'json:""',
      'json:nope',
      'json:"a\\u0000b"',
      'literal:a\u0000b',
      'literal:a\ud800',
      'json:"\\udc00"',
      'a..b',
      '.a',
      'a.',
      'a b',
      'a[x]',
      'a[01]',
      'a[0',
      'a]0[',
      'a[0]b',
      'other:x',
      'a.__proto__',
      'path:__proto__.x',
      'constructor',
      'a.prototype.b',
      'x'.repeat(1025),
      Array.from({ length: 33 }, () => 'a').join('.'),
      42,
      null,
      { path: 'a' },
    ];
    for (const expression of bad) {
      expect([expression, codes(issuesOf({ to: expression }, FIXED))]).toEqual([expression, [['invalid_expression', 'to']]]);
    }
    expect(validateMapping({ to: Array.from({ length: 32 }, () => 'a').join('.') }, FIXED).ok).toBe(true);
    expect(validateMapping({ to: `literal:${'x'.repeat(1016)}` }, FIXED).ok).toBe(true); // exactly 1024
  });

  it('refuses targets that name __proto__, prototype or constructor, however they arrive', () => {
    const polluting = ['__proto__', 'constructor.prototype', 'parameters.__proto__.x', 'prototype', 'parameters.body.constructor', 'xconstructorx'];
    for (const target of polluting) {
      const mapping = JSON.parse(`{"to":"p",${JSON.stringify(target)}:"path:x"}`) as unknown;
      expect(codes(issuesOf(mapping, FIXED))).toEqual([['forbidden_target', target]]);
    }
    const parsed = JSON.parse('{"__proto__": "path:x"}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(codes(issuesOf(parsed, FIXED))).toEqual([
      ['forbidden_target', '__proto__'],
      ['missing_target', 'to'],
    ]);
    // Checked first, for every key: reported even next to other problems, and before them.
    const mixed = JSON.parse('{"from":"x","to":"a..b","constructor":"x","__proto__":{}}') as unknown;
    expect(codes(issuesOf(mixed, FIXED))).toEqual([
      ['forbidden_target', 'constructor'],
      ['forbidden_target', '__proto__'],
      ['unknown_target', 'from'],
      ['invalid_expression', 'to'],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('quotes at most 100 characters of an unknown target', () => {
    const [issue] = issuesOf({ to: 'p', ['y'.repeat(5000)]: 'x' }, FIXED);
    expect(issue!.code).toBe('unknown_target');
    expect(issue!.message.length).toBeLessThan(200);
  });
});

describe('applyMapping', () => {
  const full = {
    to: 'path:customer.phone',
    templateName: 'tpl.name',
    templateLocale: 'tpl.locale',
    externalId: 'order.id',
    'parameters.header.document.link': 'path:invoice.url',
    'parameters.header.document.filename': 'invoice.file',
    'parameters.body.1': 'customer.name',
    'parameters.body.2': 'items[1].sku',
    'parameters.body.3': 'order.total',
    'parameters.body.4': 'order.paid',
    'parameters.body.5': 'order.big',
    'parameters.body.6': 'literal:Thanks!',
    'parameters.body.7': 'json:7',
    'parameters.body.8': 'customer.first-name',
    'parameters.body.9': 'customer.$ref',
  };

  it('maps every target, normalizing the phone and printing scalars as text', () => {
    const r = applyMapping(compile(full), payload, NO_FIXED);
    expect(r).toEqual({
      ok: true,
      request: {
        to: '+442079460958',
        templateName: 'order_update',
        templateLocale: 'it',
        externalId: 'ORD-991',
        parameters: {
          body: ['Ada Lovelace', 'SKU-2', '42.5', 'true', '9007199254740991', 'Thanks!', '7', 'Ada', 'r1'],
          header: { document: { link: 'https://files.example.com/inv/991.pdf', filename: 'invoice-991.pdf' } },
        },
      },
    });
  });

  it('omits what is not mapped', () => {
    const r = applyMapping(compile({ to: 'customer.phone' }, FIXED), payload, FIXED);
    expect(r).toEqual({ ok: true, request: { to: '+442079460958', templateName: 'order_update', templateLocale: 'en_US', parameters: { body: [] } } });
    const noFile = applyMapping(compile({ to: 'customer.phone', 'parameters.header.document.link': 'invoice.url' }, FIXED), payload, FIXED);
    expect(noFile.ok && noFile.request.parameters.header).toEqual({ document: { link: 'https://files.example.com/inv/991.pdf' } });
  });

  it('lets a configured template override mapped values, without reading them', () => {
    const m = compile({ to: 'customer.phone', templateName: 'nowhere.name', templateLocale: 'literal:fr' }, FIXED);
    const r = applyMapping(m, payload, FIXED);
    expect(r.ok && [r.request.templateName, r.request.templateLocale]).toEqual(['order_update', 'en_US']);
    // The mapped path leads nowhere: harmless while a configured name overrides it, an issue once not.
    const half = applyMapping(m, payload, { templateName: 'other_one' });
    expect(half.ok && [half.request.templateName, half.request.templateLocale]).toEqual(['other_one', 'fr']);
    expect(applyMapping(m, payload, NO_FIXED)).toMatchObject({ ok: false, issues: [{ code: 'missing_value', target: 'templateName' }] });
    const onlyName = applyMapping(compile({ to: 'customer.phone', templateName: 'tpl.name', templateLocale: 'literal:fr' }), payload, {
      templateName: 'other_one',
    });
    expect(onlyName.ok && [onlyName.request.templateName, onlyName.request.templateLocale]).toEqual(['other_one', 'fr']);
  });

  it('reads a payload that is an array', () => {
    const m = compile({ to: '[0].phone' }, FIXED);
    expect(applyMapping(m, [{ phone: '+15551234567' }], FIXED)).toMatchObject({ ok: true, request: { to: '+15551234567' } });
  });

  it('collects every issue with its code, and keeps what passed in partial', () => {
    const m = compile({
      to: 'customer.name',
      templateName: 'literal:Bad-Name',
      templateLocale: 'literal:english',
      externalId: 'order.tags',
      'parameters.header.document.link': 'literal:ftp://files.example.com/a.pdf',
      'parameters.header.document.filename': `literal:${'f'.repeat(241)}`,
      'parameters.body.1': 'order.notes',
      'parameters.body.2': 'order.missing',
      'parameters.body.3': 'order',
      'parameters.body.4': 'literal:   ',
      'parameters.body.5': 'customer.first-name',
      'parameters.body.6': `literal:${'x'.repeat(1000)}`,
    });
    const r = applyMapping(m, { ...payload, order: { ...payload.order, tags: ['x'] } }, NO_FIXED);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes(r.issues)).toEqual([
      ['invalid_phone', 'to'],
      ['invalid_value', 'templateName'],
      ['invalid_value', 'templateLocale'],
      ['not_scalar', 'externalId'],
      ['invalid_value', 'parameters.header.document.link'],
      ['invalid_value', 'parameters.header.document.filename'],
      ['missing_value', 'parameters.body.1'],
      ['missing_value', 'parameters.body.2'],
      ['not_scalar', 'parameters.body.3'],
      ['invalid_value', 'parameters.body.4'],
    ]);
    expect(r.partial.to).toBeUndefined();
    expect(r.partial.parameters?.body[4]).toBe('Ada');
    expect(r.partial.parameters?.body[5]).toHaveLength(1000);
    expect(0 in (r.partial.parameters?.body ?? [])).toBe(false);
  });

  it('applies each value rule', () => {
    const one = (target: string, value: unknown) => {
      // No fixed template here, so templateName/templateLocale are read from the payload too.
      const m = compile({ to: 'literal:+15551234567', templateName: 'literal:abc', templateLocale: 'literal:en', [target]: 'v' });
      const r = applyMapping(m, { v: value }, NO_FIXED);
      return r.ok ? 'ok' : r.issues.map((i) => i.code).join(',');
    };
    expect(one('parameters.body.1', 'x'.repeat(1024))).toBe('ok');
    expect(one('parameters.body.1', 'x'.repeat(1025))).toBe('invalid_value');
    expect(one('parameters.body.1', '😀'.repeat(1024))).toBe('ok'); // counted in characters, not UTF-16 units
    expect(one('parameters.body.1', '')).toBe('invalid_value');
    expect(one('parameters.body.1', 'a\u0000b')).toBe('invalid_value');
    expect(one('parameters.body.1', 'a\ud800b')).toBe('invalid_value');
    expect(one('parameters.body.1', 'a😀b')).toBe('ok');
    expect(one('parameters.body.1', 0)).toBe('ok');
    expect(one('parameters.body.1', false)).toBe('ok');
    expect(one('parameters.body.1', null)).toBe('missing_value');
    expect(one('parameters.body.1', [1])).toBe('not_scalar');
    expect(one('parameters.body.1', {})).toBe('not_scalar');
    expect(one('externalId', 'e'.repeat(255))).toBe('ok');
    expect(one('externalId', 'e'.repeat(256))).toBe('invalid_value');
    expect(one('parameters.header.document.link', `https://example.com/${'a'.repeat(2028)}`)).toBe('ok'); // 2048
    expect(one('parameters.header.document.link', `https://example.com/${'a'.repeat(2029)}`)).toBe('invalid_value');
    expect(one('parameters.header.document.link', 'http://example.com')).toBe('ok');
    for (const link of ['javascript:alert(1)', 'example.com/a.pdf', 'file:///etc/passwd', 'https://']) {
      expect([link, one('parameters.header.document.link', link)]).toEqual([link, 'invalid_value']);
    }
    expect(one('templateName', 'a'.repeat(512))).toBe('ok');
    expect(one('templateName', 'a'.repeat(513))).toBe('invalid_value');
    expect(one('templateLocale', 'pt_BR')).toBe('ok');
    expect(one('templateLocale', 'fil')).toBe('ok');
    expect(one('templateLocale', 'en-US')).toBe('invalid_value');
    expect(one('to', 447911123456)).toBe('ok');
  });

  it('prints numbers as JSON does', () => {
    const m = compile({ to: 'literal:+15551234567', 'parameters.body.1': 'a', 'parameters.body.2': 'b', 'parameters.body.3': 'c' }, FIXED);
    const r = applyMapping(m, JSON.parse('{"a": 1.0, "b": -0.5, "c": 12345678901234}'), FIXED);
    expect(r.ok && r.request.parameters.body).toEqual(['1', '-0.5', '12345678901234']);
  });

  it('refuses a payload that is not a JSON object or array, but still checks constants', () => {
    const m = compile({ to: 'customer.phone', templateName: 'literal:BAD' }, { templateLocale: 'en' });
    for (const p of ['{"a":1}', 42, null, undefined, true]) {
      const r = applyMapping(m, p, { templateLocale: 'en' });
      expect(r.ok ? [] : codes(r.issues)).toEqual([
        ['invalid_payload', undefined],
        ['invalid_value', 'templateName'],
      ]);
    }
  });

  it('checks configured template values too', () => {
    const r = applyMapping(compile({ to: 'customer.phone' }, FIXED), payload, { templateName: 'Not Valid', templateLocale: 'en' });
    expect(r.ok ? [] : codes(r.issues)).toEqual([['invalid_value', 'templateName']]);
  });

  it('never reads the prototype chain', () => {
    const m = compile({ to: 'toString', 'parameters.body.1': 'items.length', 'parameters.body.2': 'hasOwnProperty', 'parameters.body.3': 'a.valueOf' }, FIXED);
    const r = applyMapping(m, { items: [1, 2], a: {} }, FIXED);
    expect(r.ok ? [] : codes(r.issues)).toEqual([
      ['missing_value', 'to'],
      ['missing_value', 'parameters.body.1'],
      ['missing_value', 'parameters.body.2'],
      ['missing_value', 'parameters.body.3'],
    ]);
    // Inherited data is not the payload's either.
    const inherited = { a: Object.create({ phone: '+15551234567' }) as object };
    expect(applyMapping(compile({ to: 'a.phone' }, FIXED), inherited, FIXED)).toMatchObject({ ok: false, issues: [{ code: 'missing_value', target: 'to' }] });
  });

  it('reads a key that exists on an array only by index', () => {
    const m = compile({ to: 'a.0', 'parameters.body.1': 'o.0' }, FIXED);
    const r = applyMapping(m, { a: ['+15551234567'], o: { 0: 'zero' } }, FIXED);
    expect(r).toMatchObject({ ok: true, request: { to: '+15551234567', parameters: { body: ['zero'] } } });
    const holes = applyMapping(compile({ to: 'a[1]' }, FIXED), { a: [, '+15551234567'] }, FIXED); // eslint-disable-line no-sparse-arrays
    expect(holes.ok).toBe(true);
    expect(applyMapping(compile({ to: 'a[0]' }, FIXED), { a: [, '+15551234567'] }, FIXED).ok).toBe(false); // eslint-disable-line no-sparse-arrays
  });
});

describe('issue messages and stored diagnostics carry no values', () => {
  const secretPayload = {
    phone: '+44 7911 123456',
    badPhone: 'call me at 0207946 0958',
    name: 'Grace Hopper',
    notes: { diagnosis: 'confidential-medical-note' },
    link: 'https://private.example.org/tok_a1b2c3/report.pdf',
    ext: 'EXT-SECRET-77',
    big: 'B'.repeat(2000),
  };
  const values = ['+447911123456', '7911123456', '0207946 0958', 'Grace Hopper', 'confidential-medical-note', 'tok_a1b2c3', 'EXT-SECRET-77', 'BBBBBBBB'];
  const m = compile({
    to: 'phone',
    templateName: 'literal:order_update',
    templateLocale: 'literal:en',
    externalId: 'ext',
    'parameters.header.document.link': 'link',
    'parameters.header.document.filename': 'literal:Secret Filename.pdf',
    'parameters.body.1': 'name',
    'parameters.body.2': 'notes',
    'parameters.body.3': 'big',
    'parameters.body.4': 'literal:A literal the customer wrote',
  });

  it('on success: the sanitized request is shape only', () => {
    const ok = applyMapping(m, { ...secretPayload, notes: 'confidential-medical-note', big: 'B'.repeat(1024) }, NO_FIXED);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    const stored = sanitizeMappedRequest(m, ok.request);
    expect(stored).toEqual({
      to: { present: true, valid: true },
      templateName: 'order_update',
      templateLocale: 'en',
      externalId: { present: true, length: 13 },
      parameters: {
        body: [
          { index: 1, length: 12 },
          { index: 2, length: 25 },
          { index: 3, length: 1024 },
          { index: 4, length: 28 },
        ],
        header: { document: { linkHost: 'private.example.org', filenameLength: 19 } },
      },
      sources: {
        to: 'path:phone',
        templateName: 'literal',
        templateLocale: 'literal',
        externalId: 'path:ext',
        'parameters.header.document.link': 'path:link',
        'parameters.header.document.filename': 'literal',
        'parameters.body.1': 'path:name',
        'parameters.body.2': 'path:notes',
        'parameters.body.3': 'path:big',
        'parameters.body.4': 'literal',
      },
    });
    const text = JSON.stringify(stored);
    for (const v of [...values, 'Secret Filename', 'customer wrote']) expect([v, text.includes(v)]).toEqual([v, false]);
  });

  it('on failure: neither the issues nor the sanitized partial quote a value', () => {
    const failing = compile({ ...Object.fromEntries(m.entries.map((e) => [e.target, e.expression.source])), to: 'badPhone' });
    const r = applyMapping(failing, secretPayload, NO_FIXED);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes(r.issues)).toEqual([
      ['invalid_phone', 'to'],
      ['not_scalar', 'parameters.body.2'],
      ['invalid_value', 'parameters.body.3'],
    ]);
    const stored = sanitizeMappedRequest(failing, r.partial);
    expect(stored.to).toEqual({ present: true, valid: false });
    expect(stored.parameters.body.map((b) => b.index)).toEqual([1, 4]);
    const text = JSON.stringify([r.issues, stored]);
    for (const v of [...values, 'Secret Filename']) expect([v, text.includes(v)]).toEqual([v, false]);
    expect(r.issues.map((i) => i.message)).toContain('to is not a phone number in international format');
  });

  it('describes an unmapped request as absent, and drops a template name that is not one', () => {
    const minimal = compile({ to: 'phone' }, FIXED);
    expect(sanitizeMappedRequest(minimal, {})).toEqual({
      to: { present: true, valid: false },
      templateName: null,
      templateLocale: null,
      externalId: null,
      parameters: { body: [], header: null },
      sources: { to: 'path:phone' },
    });
    expect(sanitizeMappedRequest(minimal, { templateName: 'Grace Hopper', to: '0207946 0958' })).toMatchObject({
      to: { present: true, valid: false },
      templateName: null,
    });
  });
});

describe('normalizeRecipientPhone', () => {
  it.each([
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+1 (555) 123-4567', '+15551234567'],
    ['+1.555.123.4567', '+15551234567'],
    ['  +39 333 123 4567 ', '+393331234567'],
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['447911123456', '+447911123456'],
    ['+1234567', '+1234567'],
    ['+123456789012345', '+123456789012345'],
  ])('%s -> %s', (raw, e164) => expect(normalizeRecipientPhone(raw)).toBe(e164));

  it.each([
    ['+123456'], // too short
    ['+1234567890123456'], // too long
    ['+0 20 7946 0958'], // leading 0 after +
    ['+044 20 7946 0958'],
    ['020 7946 0958'], // national: no country
    ['000 44 20 7946 0958'],
    ['+44 20 ABC 0958'], // letters
    ['tel:+442079460958'],
    ['+44 20 7946 0958 ext 1'],
    ['++442079460958'],
    ['44+2079460958'],
    ['+1 (555 123-4567'],
    [''],
    ['   '],
    ['+'],
    ['1'.repeat(100)],
    ['+４４２０７９４６０９５８'], // full-width digits
  ])('%s -> null', (raw) => expect(normalizeRecipientPhone(raw)).toBeNull());

  it('never throws on a non-string', () => {
    expect(normalizeRecipientPhone(undefined as unknown as string)).toBeNull();
    expect(normalizeRecipientPhone(4471 as unknown as string)).toBeNull();
  });
});
