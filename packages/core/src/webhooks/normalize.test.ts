import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeStoredEnvelope } from './stored-envelope';
import { normalizeEnvelope, summarizeEvent, type NormalizedEnvelope } from './normalize';

const FIXTURES = new URL('./fixtures/', import.meta.url);

function load(name: string): NormalizedEnvelope {
  const decoded = decodeStoredEnvelope(readFileSync(new URL(`${name}.json`, FIXTURES)));
  if (!decoded.ok) throw new Error(`${name}: ${decoded.error}`);
  return normalizeEnvelope(decoded.envelope);
}

const scope = { accountId: '102290129340398', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const OUT_ID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';

describe('normalizeEnvelope: message.inbound (+ conversation.updated window opening)', () => {
  it('inbound-text', () => {
    const { events, skipped } = load('inbound-text');
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      {
        ...scope, family: 'message.inbound', providerMessageId: 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        from: '16505551234', contactName: 'Sheena Nelson', sentAt: '2025-06-08T20:59:43.000Z', type: 'text',
        text: 'Does it come in another color?', media: null, reply: null, inReplyToMessageId: null, keyword: null,
      },
      {
        ...scope, family: 'conversation.updated', contact: '16505551234', change: 'service_window_opened', conversationId: null,
        origin: null, occurredAt: '2025-06-08T20:59:43.000Z', expiresAt: '2025-06-09T20:59:43.000Z',
      },
    ]);
  });

  it('inbound-image keeps the media id to fetch later and the caption', () => {
    const [msg] = load('inbound-image').events;
    expect(msg).toMatchObject({
      family: 'message.inbound', type: 'image', text: 'Here is the damaged box',
      media: { kind: 'image', id: '1003383421387256', mimeType: 'image/jpeg', sha256: 'SfInY0gUq2ZyW/4u3DQy8yQpJqYbYvtOd9cV9sDUpgo=', filename: null },
    });
  });

  it('inbound-button-reply points at our outbound message', () => {
    const [msg] = load('inbound-button-reply').events;
    expect(msg).toMatchObject({
      family: 'message.inbound', type: 'interactive', text: 'Yes, confirm',
      reply: { kind: 'button_reply', id: 'confirm_yes', title: 'Yes, confirm' },
      inReplyToMessageId: 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI3NTI5QjAwNTA2MjU5NzY5NEMA',
    });
  });

  it('inbound-stop is flagged as an opt-out keyword', () => {
    const { events } = load('inbound-stop');
    expect(events.map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated']);
    expect(events[0]).toMatchObject({ text: 'STOP', keyword: 'opt_out' });
  });
});

describe('normalizeEnvelope: message.status', () => {
  it('sent and delivered carry conversation and pricing, and open a conversation', () => {
    for (const [name, status, ts] of [['status-sent', 'sent', '2025-06-18T16:23:20.000Z'], ['status-delivered', 'delivered', '2025-06-18T16:23:22.000Z']] as const) {
      const { events, skipped } = load(name);
      expect(skipped).toEqual([]);
      expect(events).toEqual([
        {
          ...scope, family: 'message.status', providerMessageId: OUT_ID, status, occurredAt: ts, recipient: '16505551234',
          conversationId: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', pricing: { billable: true, model: 'PMP', category: 'utility' }, errors: [],
        },
        {
          ...scope, family: 'conversation.updated', contact: '16505551234', change: 'conversation_opened',
          conversationId: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', origin: 'utility', occurredAt: ts, expiresAt: '2025-06-19T16:20:00.000Z',
        },
      ]);
    }
  });

  it('read has no conversation', () => {
    expect(load('status-read').events).toEqual([
      {
        ...scope, family: 'message.status', providerMessageId: OUT_ID, status: 'read', occurredAt: '2025-06-18T16:23:50.000Z',
        recipient: '16505551234', conversationId: null, pricing: null, errors: [],
      },
    ]);
  });

  it('failed 131047 carries the error and closes the service window', () => {
    const { events } = load('status-failed-131047');
    expect(events[0]).toMatchObject({
      family: 'message.status', status: 'failed',
      errors: [{ code: 131047, title: 'Re-engagement message', details: expect.stringContaining('more than 24 hours') }],
    });
    expect(events[1]).toMatchObject({ family: 'conversation.updated', change: 'service_window_closed', contact: '16505551234' });
  });

  it('failed 131056 (pair rate limit) is a status only', () => {
    const { events } = load('status-failed-131056');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ family: 'message.status', status: 'failed', errors: [{ code: 131056 }] });
  });
});

describe('normalizeEnvelope: template.updated', () => {
  it('template-approved', () => {
    expect(load('template-approved').events).toEqual([
      {
        family: 'template.updated', accountId: '102290129340398', providerTemplateId: '1689556908129832', name: 'order_confirmation',
        language: 'en_US', category: 'UTILITY', event: 'APPROVED', status: 'approved', reason: null, detail: null,
      },
    ]);
  });

  it('template-rejected keeps the reason and the description', () => {
    expect(load('template-rejected').events).toEqual([
      {
        family: 'template.updated', accountId: '102290129340398', providerTemplateId: '1689556908129833', name: 'summer_sale',
        language: 'it', category: 'MARKETING', event: 'REJECTED', status: 'rejected', reason: 'INVALID_FORMAT',
        detail: 'Template contains a variable at the start or end of the body.',
      },
    ]);
  });
});

describe('normalizeEnvelope: what produces no family', () => {
  it('unknown-field is skipped as unsupported', () => {
    expect(load('unknown-field')).toEqual({
      events: [], skipped: [{ entryId: '102290129340398', field: 'account_update', reason: 'unsupported_field' }],
    });
  });

  it('async-error keeps the provider error codes', () => {
    expect(load('async-error')).toEqual({
      events: [], skipped: [{ entryId: '102290129340398', field: 'messages', reason: 'provider_errors', errorCodes: [131000] }],
    });
  });

  it('several entries and changes in one envelope are all normalized, a bad value does not sink its siblings', () => {
    const text = JSON.parse(readFileSync(new URL('inbound-text.json', FIXTURES), 'utf8'));
    const tpl = JSON.parse(readFileSync(new URL('template-approved.json', FIXTURES), 'utf8'));
    const envelope = {
      object: 'messaging_business_account',
      entry: [
        { id: 'a', changes: [...text.entry[0].changes, { field: 'messages', value: { statuses: [{ id: 'x' }] } }] },
        tpl.entry[0],
      ],
    };
    const { events, skipped } = normalizeEnvelope(envelope);
    expect(events.map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated', 'template.updated']);
    expect(skipped).toEqual([{ entryId: 'a', field: 'messages', reason: 'invalid_value' }]);
  });

  it('is deterministic for every fixture, and summaries carry no phone numbers or bodies', () => {
    const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
    expect(names.length).toBe(13);
    for (const name of names) {
      expect(load(name)).toEqual(load(name));
      const summaries = JSON.stringify(load(name).events.map(summarizeEvent));
      expect(summaries).not.toContain('16505551234');
      expect(summaries).not.toContain('color');
    }
  });
});

describe('decodeStoredEnvelope', () => {
  it('classifies invalid JSON and a wrong shape as permanent failures', () => {
    expect(decodeStoredEnvelope('{nope')).toMatchObject({ ok: false, error: 'invalid_json' });
    expect(decodeStoredEnvelope('{"object":"page","entry":[]}')).toMatchObject({ ok: false, error: 'invalid_payload' });
    expect(decodeStoredEnvelope('{"object":"messaging_business_account","entry":[]}')).toMatchObject({ ok: true });
  });
});
