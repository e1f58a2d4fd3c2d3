import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProviderEnvelope, publicSummary } from './envelope';

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
    expect(parsed.summary).toMatchObject({ object: 'messaging_business_account', entries: 1, changeCount: 1, topic, messageCount, statusCount, accountId: '102290129340398' });
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
    expect(parseProviderEnvelope(JSON.stringify(mixed)).summary).toMatchObject({ entries: 2, changeCount: 3, topic: 'messages', messageCount: 1, statusCount: 1 });
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
    for (const body of ['[]', '42', 'null', '{"object":"page","entry":[]}', '{"object":"messaging_business_account"}', '{"object":"messaging_business_account","entry":[{"changes":[]}]}', '{"object":"messaging_business_account","entry":[{"id":"1","changes":[{"value":{}}]}]}']) {
      const parsed = parseProviderEnvelope(body);
      expect(parsed.ok, body).toBe(false);
      expect(parsed.summary.topic).toBe('invalid_payload');
      if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
    }
    expect(parseProviderEnvelope('{"object":"page","entry":[]}').summary.object).toBe('page');
  });

  it('publicSummary carries exactly the response fields', () => {
    expect(Object.keys(publicSummary(parseProviderEnvelope(fixture('inbound-text.json')).summary)).sort()).toEqual(
      ['changeCount', 'entries', 'messageCount', 'object', 'statusCount', 'topic'],
    );
  });
});
