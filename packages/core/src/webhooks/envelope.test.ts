import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_ENVELOPE_OBJECTS, parseProviderEnvelope, publicSummary } from './envelope';

const dir = new URL('./fixtures/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir));

describe('parseProviderEnvelope topics', () => {
  it.each([
    ['inbound-text.json', 'messages', 1, 0],
    ['inbound-image.json', 'messages', 1, 0],
    ['inbound-button-reply.json', 'messages', 1, 0],
    ['inbound-stop.json', 'messages', 1, 0],
    ['status-sent.json', 'message_status', 0, 1],
    ['status-delivered.json', 'message_status', 0, 1],
    ['status-read.json', 'message_status', 0, 1],
    ['status-failed-131047.json', 'message_status', 0, 1],
    ['status-failed-131056.json', 'message_status', 0, 1],
    ['template-approved.json', 'unknown', 0, 0],
    ['template-rejected.json', 'unknown', 0, 0],
    ['unknown-field.json', 'unknown', 0, 0],
    ['async-error.json', 'unknown', 0, 0],
  ])('%s -> %s', (name, topic, messageCount, statusCount) => {
    const parsed = parseProviderEnvelope(fixture(name));
    expect(parsed.ok).toBe(true);
    expect(parsed.summary).toMatchObject({
      object: 'messaging_business_account',
      entries: 1,
      changeCount: 1,
      topic,
      messageCount,
      statusCount,
      accountId: '102290129340398',
    });
  });

  it('covers every fixture', () => {
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    expect(names.length).toBe(13);
  });

  it('records the account and phone-number scope of a messages change', () => {
    expect(parseProviderEnvelope(fixture('inbound-text.json')).summary).toMatchObject({ phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' });
    expect(parseProviderEnvelope(fixture('template-approved.json')).summary).toMatchObject({ phoneNumberId: null, displayPhoneNumber: null });
  });

  it('a mixed envelope is messages (precedence), counts add up across entries and changes', () => {
    const text = JSON.parse(fixture('inbound-text.json').toString());
    const status = JSON.parse(fixture('status-read.json').toString());
    const tpl = JSON.parse(fixture('template-approved.json').toString());
    const mixed = { object: 'messaging_business_account', entry: [...status.entry, { id: 'x', changes: [...text.entry[0].changes, ...tpl.entry[0].changes] }] };
    expect(parseProviderEnvelope(JSON.stringify(mixed)).summary).toMatchObject({
      entries: 2,
      changeCount: 3,
      topic: 'messages',
      messageCount: 1,
      statusCount: 1,
    });
    const statusesOnly = { object: 'messaging_business_account', entry: [...status.entry, ...tpl.entry] };
    expect(parseProviderEnvelope(JSON.stringify(statusesOnly)).summary.topic).toBe('message_status');
    expect(parseProviderEnvelope('{"object":"messaging_business_account","entry":[]}').summary).toMatchObject({ topic: 'unknown', entries: 0 });
  });

  it('non-JSON bodies are invalid_json', () => {
    for (const body of ['', 'not json', '{"object":', Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]) {
      const parsed = parseProviderEnvelope(body);
      expect(parsed.ok).toBe(false);
      expect(parsed.summary).toMatchObject({ topic: 'invalid_json', object: null, entries: 0 });
    }
  });

  it('wrong-shape JSON is invalid_payload, keeping a string object', () => {
    for (const body of [
      '[]',
      '42',
      'null',
      '{"object":"page","entry":[]}',
      '{"object":"messaging_business_account"}',
      '{"object":"messaging_business_account","entry":[{"changes":[]}]}',
      '{"object":"messaging_business_account","entry":[{"id":"1","changes":[{"value":{}}]}]}',
    ]) {
      const parsed = parseProviderEnvelope(body);
      expect(parsed.ok, body).toBe(false);
      expect(parsed.summary.topic).toBe('invalid_payload');
      if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
    }
    expect(parseProviderEnvelope('{"object":"page","entry":[]}').summary.object).toBe('page');
  });

  it("accepts the provider's object name and the spec's, nothing else", () => {
    expect(ACCEPTED_ENVELOPE_OBJECTS).toEqual(['whatsapp_business_account', 'messaging_business_account']);
    const text = JSON.parse(fixture('inbound-text.json').toString());
    for (const object of ACCEPTED_ENVELOPE_OBJECTS) {
      expect(parseProviderEnvelope(JSON.stringify({ ...text, object })).summary).toMatchObject({ object, topic: 'messages', messageCount: 1 });
    }
    for (const object of ['WHATSAPP_BUSINESS_ACCOUNT', 'page', 'instagram', '']) {
      expect(parseProviderEnvelope(JSON.stringify({ ...text, object })).summary).toMatchObject({ object, topic: 'invalid_payload' });
    }
  });

  it('says why a body is not an envelope, in words an operator can act on', () => {
    const cases: [string, string[]][] = [
      [
        '{"object":"page","entry":[]}',
        ['the envelope\'s object is "page"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries'],
      ],
      ['{"entry":[]}', ['the envelope has no "object"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries']],
      [
        '{"object":7,"entry":[]}',
        ["the envelope's object is a number, not a name; mos reads whatsapp_business_account (and the spec's messaging_business_account) deliveries"],
      ],
      ['[1,2]', ['the body is JSON but not an object (it is an array)']],
      ['null', ['the body is JSON but not an object (it is null)']],
      ['{"object":"whatsapp_business_account"}', ['entry is missing']],
      ['{"object":"whatsapp_business_account","entry":{}}', ['entry is an object, not an array']],
      ['{"object":"whatsapp_business_account","entry":[{"id":"1"}]}', ['entry[0].changes is missing']],
      ['{"object":"whatsapp_business_account","entry":[{"id":"","changes":[]}]}', ['entry[0].id is empty']],
      [
        '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"value":{}}, {"field":3}]}]}',
        ['entry[0].changes[0].field is missing', 'entry[0].changes[1].field is a number, not a string', 'entry[0].changes[1].value is missing'],
      ],
      ['{"object":"page","entry":[{"changes":[]}]}', [expect.stringMatching(/^the envelope's object is "page"/), 'entry[0].id is missing']],
    ];
    for (const [body, issues] of cases) {
      const parsed = parseProviderEnvelope(body);
      expect(parsed.ok, body).toBe(false);
      if (!parsed.ok) expect(parsed.issues, body).toEqual(issues);
    }
  });

  it('the object name in an issue is cut short and escaped; no other value is ever quoted', () => {
    const hostile = `evil"\\\u0000\u202e${'x'.repeat(100)}`;
    const parsed = parseProviderEnvelope(
      JSON.stringify({ object: hostile, entry: [{ id: 'SECRET-ID-123', changes: [{ field: 'secret-field', value: { from: '16505551234' } }] }] }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual([
      `the envelope's object is "evil\\"\\\\\\u{0}\\u{202e}${'x'.repeat(32)}" (truncated); mos reads whatsapp_business_account (and the spec's messaging_business_account) deliveries`,
    ]);
    expect(parsed.issues.join(' ')).not.toMatch(/SECRET-ID|secret-field|16505551234|[^\x20-\x7e]/);
  });

  it('never throws: a body of 100k broken changes returns quickly as invalid_payload, with at most ten issues', () => {
    // A schema library collecting every issue threw RangeError on this body (the ingress then
    // answered 503 and stored nothing).
    const body = `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[${Array(100_000).fill('{}').join(',')}]}]}`;
    const started = performance.now();
    const parsed = parseProviderEnvelope(body);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(parsed.ok).toBe(false);
    expect(parsed.summary).toMatchObject({ topic: 'invalid_payload', object: 'whatsapp_business_account', entries: 0 });
    if (parsed.ok) return;
    expect(parsed.issues).toEqual([
      'entry[0].changes[0].field is missing',
      'entry[0].changes[0].value is missing',
      'entry[0].changes[1].field is missing',
      'entry[0].changes[1].value is missing',
      'entry[0].changes[2].field is missing',
      'entry[0].changes[2].value is missing',
      'entry[0].changes[3].field is missing',
      'entry[0].changes[3].value is missing',
      'entry[0].changes[4].field is missing',
      'entry[0].changes[4].value is missing',
    ]);
  });

  it('never throws on deep or wide bodies, valid or not', () => {
    const deep = `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"x","value":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}]}`;
    expect(parseProviderEnvelope(deep)).toMatchObject({ ok: true, summary: { changeCount: 1, topic: 'unknown' } });
    const manyEntries = `{"object":"whatsapp_business_account","entry":[${Array(100_000).fill('7').join(',')}]}`;
    const wide = parseProviderEnvelope(manyEntries);
    expect(wide.ok).toBe(false);
    if (!wide.ok) expect(wide.issues).toEqual(Array.from({ length: 10 }, (_, i) => `entry[${i}] is a number, not an object`));
    const valid = { object: 'whatsapp_business_account', entry: [{ id: '1', changes: Array(100_000).fill({ field: 'security', value: {} }) }] };
    expect(parseProviderEnvelope(JSON.stringify(valid)).summary).toMatchObject({ topic: 'unknown', changeCount: 100_000 });
  });

  it('publicSummary carries exactly the response fields', () => {
    expect(Object.keys(publicSummary(parseProviderEnvelope(fixture('inbound-text.json')).summary)).sort()).toEqual([
      'changeCount',
      'entries',
      'messageCount',
      'object',
      'statusCount',
      'topic',
    ]);
  });
});
