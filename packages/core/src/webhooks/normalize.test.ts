import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProviderEnvelope } from './envelope';
import type { NormalizedEvent } from './events';
import { normalizeEnvelope, summarizeEvent, type NormalizedEnvelope } from './normalize';
import { opensServiceWindow } from './service-window';
import { providerDocsExample } from './testing/provider-docs-examples';
import { STARTER_PACK } from '../templates/starter-pack';
import { mapProviderTemplateStatus } from '../templates/status';

/**
 * The spec fixtures (fixtures/*.json, `object: messaging_business_account`) and the rules the
 * provider-docs table (normalize.provider-docs.test.ts) does not reach: skips, identity,
 * keywords, fallbacks. Shapes follow the provider's pages (fixtures/provider-docs/README.md;
 * D = https://developers.facebook.com/documentation/business-messaging/whatsapp).
 */
const FIXTURES = new URL('./fixtures/', import.meta.url);
const json = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));

/** Decoded as the worker does (workflows/src/webhook-processing/activities.ts), then normalized. */
function normalizeBytes(name: string, bytes: Buffer): NormalizedEnvelope {
  const parsed = parseProviderEnvelope(bytes);
  if (!parsed.ok) throw new Error(`${name}: ${parsed.issues.join('; ')}`);
  return normalizeEnvelope(parsed.envelope);
}
const load = (name: string) => normalizeBytes(name, readFileSync(new URL(`${name}.json`, FIXTURES)));

const scope = { accountId: '102290129340398', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const sheena = { waId: '16505551234', userId: null, profileName: 'Sheena Nelson', username: null, countryCode: null };
const OUT_ID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';
const metadata = { display_phone_number: '15550783881', phone_number_id: '106540352242922' };

/** One `messages` change around the given value parts. */
function messagesEnvelope(value: Record<string, unknown>, field = 'messages', time?: number) {
  return { entry: [{ id: '102290129340398', ...(time ? { time } : {}), changes: [{ field, value: { messaging_product: 'whatsapp', metadata, ...value } }] }] };
}
const message = (over: Record<string, unknown>) => ({
  from: '16505551234',
  id: 'wamid.A',
  timestamp: '1749416383',
  type: 'text',
  text: { body: 'hi' },
  ...over,
});

describe('spec fixtures: message.inbound (+ conversation.updated window opening)', () => {
  it('inbound-text', () => {
    const { events, skipped } = load('inbound-text');
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      {
        ...scope,
        family: 'message.inbound',
        providerMessageId: 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        contact: sheena,
        sentAt: '2025-06-08T20:59:43.000Z',
        type: 'text',
        content: { kind: 'text', body: 'Does it come in another color?' },
        text: 'Does it come in another color?',
        context: null,
        referral: null,
        errors: [],
        optKeyword: null,
      },
      {
        ...scope,
        family: 'conversation.updated',
        contact: sheena,
        change: 'service_window_opened',
        conversationId: null,
        origin: null,
        occurredAt: '2025-06-08T20:59:43.000Z',
        expiresAt: '2025-06-09T20:59:43.000Z',
      },
    ]);
  });

  it('inbound-image keeps the media id to fetch later and the caption', () => {
    expect(load('inbound-image').events[0]).toMatchObject({
      family: 'message.inbound',
      type: 'image',
      text: 'Here is the damaged box',
      content: {
        kind: 'media',
        mediaKind: 'image',
        id: '1003383421387256',
        mimeType: 'image/jpeg',
        sha256: 'SfInY0gUq2ZyW/4u3DQy8yQpJqYbYvtOd9cV9sDUpgo=',
        filename: null,
      },
    });
  });

  it('inbound-button-reply points at our outbound message', () => {
    expect(load('inbound-button-reply').events[0]).toMatchObject({
      family: 'message.inbound',
      type: 'interactive',
      text: 'Yes, confirm',
      optKeyword: null,
      content: { kind: 'interactive', replyType: 'button_reply', id: 'confirm_yes', title: 'Yes, confirm' },
      context: { replyToMessageId: 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI3NTI5QjAwNTA2MjU5NzY5NEMA', replyToFrom: '15550783881' },
    });
  });

  it('inbound-stop is flagged as an opt-out keyword', () => {
    const { events } = load('inbound-stop');
    expect(events.map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated']);
    expect(events[0]).toMatchObject({ text: 'STOP', optKeyword: 'stop' });
  });
});

describe('spec fixtures: message.status', () => {
  it('sent and delivered carry conversation and pricing, and open a conversation', () => {
    for (const [name, status, ts] of [
      ['status-sent', 'sent', '2025-06-18T16:23:20.000Z'],
      ['status-delivered', 'delivered', '2025-06-18T16:23:22.000Z'],
    ] as const) {
      const { events, skipped } = load(name);
      expect(skipped).toEqual([]);
      const recipient = { waId: '16505551234', userId: null, profileName: null, username: null, countryCode: null };
      expect(events).toEqual([
        {
          ...scope,
          family: 'message.status',
          providerMessageId: OUT_ID,
          status,
          occurredAt: ts,
          recipient,
          conversation: { id: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', originType: 'utility', expiresAt: '2025-06-19T16:20:00.000Z' },
          pricing: { billable: true, model: 'PMP', category: 'utility', type: null },
          callbackData: null,
          errors: [],
        },
        {
          ...scope,
          family: 'conversation.updated',
          contact: recipient,
          change: 'conversation_opened',
          conversationId: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4',
          origin: 'utility',
          occurredAt: ts,
          expiresAt: '2025-06-19T16:20:00.000Z',
        },
      ]);
    }
  });

  it('read has no conversation', () => {
    expect(load('status-read').events).toMatchObject([
      { family: 'message.status', status: 'read', occurredAt: '2025-06-18T16:23:50.000Z', conversation: null, pricing: null, errors: [] },
    ]);
  });

  it('failed 131047 carries the error and closes the service window', () => {
    const { events } = load('status-failed-131047');
    expect(events[0]).toMatchObject({
      family: 'message.status',
      status: 'failed',
      errors: [
        {
          code: 131047,
          title: 'Re-engagement message',
          message: 'Re-engagement message',
          details: expect.stringContaining('more than 24 hours'),
          href: expect.any(String),
        },
      ],
    });
    expect(events[1]).toMatchObject({ family: 'conversation.updated', change: 'service_window_closed', contact: { waId: '16505551234' } });
  });

  it('failed 131056 (pair rate limit) is a status only', () => {
    const { events } = load('status-failed-131056');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ family: 'message.status', status: 'failed', errors: [{ code: 131056 }] });
  });
});

describe('spec fixtures: template.updated, account.updated', () => {
  it('template-approved', () => {
    expect(load('template-approved').events).toEqual([
      {
        family: 'template.updated',
        accountId: '102290129340398',
        providerTemplateId: '1689556908129832',
        name: 'order_confirmation',
        language: 'en_US',
        occurredAt: null,
        change: 'status',
        event: 'APPROVED',
        status: 'approved',
        category: 'UTILITY',
        reason: null,
        detail: null,
      },
    ]);
  });

  it('template-rejected keeps the reason and the other_info title and description', () => {
    expect(load('template-rejected').events[0]).toMatchObject({
      change: 'status',
      status: 'rejected',
      reason: 'INVALID_FORMAT',
      detail: { title: 'FORMAT', description: 'Template contains a variable at the start or end of the body.', recommendation: null, disableDate: null },
    });
  });

  it('an account_update change (topic unknown at the ingress) is recorded for operators', () => {
    expect(load('unknown-field')).toMatchObject({
      events: [{ family: 'account.updated', field: 'account_update', event: 'VERIFIED_ACCOUNT', summary: 'Account update VERIFIED_ACCOUNT.' }],
      skipped: [],
    });
  });

  it('async-error: an errors-only value keeps the codes, for operators', () => {
    expect(load('async-error')).toMatchObject({
      events: [
        {
          ...scope,
          family: 'account.updated',
          field: 'messages',
          event: 'errors',
          errors: [{ code: 131000, title: 'Something went wrong' }],
          summary: expect.stringContaining('131000'),
        },
      ],
      skipped: [],
    });
  });

  it('errors beside a message: the account event keeps the errors and the business number, not the customer', () => {
    const value = {
      contacts: [{ wa_id: '16505551234', profile: { name: 'Sheena Nelson' } }],
      messages: [message({})],
      errors: [{ code: 130429, title: 'Rate limit hit' }],
    };
    const account = normalizeEnvelope(messagesEnvelope(value)).events.find((e) => e.family === 'account.updated')!;
    expect(account).toMatchObject({ errors: [{ code: 130429 }], value: { errors: [{ code: 130429, title: 'Rate limit hit' }], metadata: expect.any(Object) } });
    const stored = JSON.stringify(account.family === 'account.updated' ? account.value : null);
    for (const personal of ['16505551234', 'Sheena Nelson', 'contacts', 'messages']) expect(stored).not.toContain(personal);
  });
});

describe('what produces no family, and siblings that survive it', () => {
  it('one unreadable message is skipped with its id; its siblings and the next change are kept', () => {
    const text = json(new URL('inbound-text.json', FIXTURES));
    const tpl = json(new URL('template-approved.json', FIXTURES));
    const value = text.entry[0].changes[0].value;
    value.messages = [message({ id: 'wamid.bad', timestamp: 'yesterday' }), ...value.messages, message({ id: 'wamid.B' })];
    const envelope = { entry: [{ id: 'a', changes: [...text.entry[0].changes, { field: 'messages', value: { statuses: [{ id: 'x' }] } }] }, tpl.entry[0]] };
    const { events, skipped } = normalizeEnvelope(envelope);
    expect(events.map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated', 'message.inbound', 'conversation.updated', 'template.updated']);
    expect(skipped).toEqual([
      { entryId: 'a', field: 'messages', reason: 'invalid_value', ref: 'wamid.bad' },
      { entryId: 'a', field: 'messages', reason: 'invalid_value', ref: 'x' },
    ]);
  });

  it.each([
    [
      'a status string outside the documented ones',
      { statuses: [{ id: 'wamid.S', status: 'seen', timestamp: '1750263800', recipient_id: '1' }] },
      'unknown_status',
      'wamid.S',
    ],
    ['a message with neither phone nor user id', { messages: [message({ from: '' })] }, 'invalid_value', 'wamid.A'],
    [
      'a status with neither phone nor user id',
      { statuses: [{ id: 'wamid.S', status: 'read', timestamp: '1750263800', recipient_id: '' }] },
      'invalid_value',
      'wamid.S',
    ],
    [
      'a system notice of an undocumented kind',
      { messages: [message({ type: 'system', system: { type: 'group_created' } })] },
      'unsupported_system_type',
      'wamid.A',
    ],
    [
      'a number change without the new number',
      { messages: [message({ type: 'system', system: { type: 'user_changed_number' } })] },
      'invalid_value',
      'wamid.A',
    ],
    ['a reaction to no message', { messages: [message({ type: 'reaction', reaction: { emoji: '👍' } })] }, 'invalid_value', 'wamid.A'],
    ['an edit without its new message', { messages: [message({ type: 'edit', edit: { original_message_id: 'wamid.O' } })] }, 'invalid_value', 'wamid.A'],
    ['a revoke without the original id', { messages: [message({ type: 'revoke', revoke: {} })] }, 'invalid_value', 'wamid.A'],
    ['messages that is not a list', { messages: { id: 'x' } }, 'invalid_value', undefined],
    ['errors none of which has a code', { errors: [{ title: 'no code' }] }, 'invalid_value', undefined],
    ['nothing at all', {}, 'empty', undefined],
  ])('%s', (_label, value, reason, ref) => {
    expect(normalizeEnvelope(messagesEnvelope(value))).toEqual({
      events: [],
      skipped: [{ entryId: '102290129340398', field: 'messages', reason, ...(ref ? { ref } : {}) }],
    });
  });

  it('an unhandled field is skipped as unsupported; a value that is not an object is unreadable', () => {
    const envelope = {
      entry: [
        {
          id: 'a',
          changes: [
            { field: 'calls', value: {} },
            { field: '__proto__', value: {} },
            { field: 'security', value: 'x' },
          ],
        },
      ],
    };
    expect(normalizeEnvelope(envelope).skipped.map((s) => s.reason)).toEqual(['unsupported_field', 'unsupported_field', 'invalid_value']);
  });
});

describe('identity', () => {
  it('a hidden number is null; the user id keys the contact and finds its profile', () => {
    const value = {
      contacts: [
        { profile: { name: 'Other' }, wa_id: '1999' },
        { profile: { name: 'Hidden', username: '@h', country_code: 'IT' }, wa_id: '', user_id: 'user.H' },
      ],
      messages: [message({ from: '', from_user_id: 'user.H' })],
    };
    expect(normalizeEnvelope(messagesEnvelope(value)).events[0]).toMatchObject({
      contact: { waId: null, userId: 'user.H', profileName: 'Hidden', username: '@h', countryCode: 'IT' },
    });
  });

  it('the matching contacts[] entry fills the user id the message left out; a non-matching one is never guessed', () => {
    const matched = { contacts: [{ wa_id: '16505551234', user_id: 'user.S', profile: { name: 'S' } }], messages: [message({})] };
    expect(normalizeEnvelope(messagesEnvelope(matched)).events[0]).toMatchObject({ contact: { waId: '16505551234', userId: 'user.S', profileName: 'S' } });
    const other = { contacts: [{ wa_id: '1999', profile: { name: 'Someone else' } }], messages: [message({})] };
    expect(normalizeEnvelope(messagesEnvelope(other)).events[0]).toMatchObject({ contact: { waId: '16505551234', userId: null, profileName: null } });
  });

  // A phone the effects cannot store (core toE164) used to normalize and then fail the whole
  // delivery in the effect, non-retryably, after its siblings were written.
  it.each([
    ['letters', 'abc'],
    ['too short', '12345'],
    ['a leading zero', '06505551234'],
    ['too long', '1234567890123456'],
    ['blank', '   '],
  ])('a phone that is not a number (%s) counts as absent: the item is skipped with its ref, its siblings are kept', (_label, phone) => {
    const value = {
      contacts: [{ wa_id: phone, profile: { name: 'Nobody' } }],
      messages: [message({ id: 'wamid.bad', from: phone }), message({ id: 'wamid.ok' })],
      statuses: [{ id: 'wamid.S', status: 'read', timestamp: '1750263800', recipient_id: phone }],
    };
    const { events, skipped } = normalizeEnvelope(messagesEnvelope(value));
    expect(events.map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated']);
    expect(events[0]).toMatchObject({ providerMessageId: 'wamid.ok', contact: { waId: '16505551234' } });
    expect(skipped).toEqual([
      { entryId: '102290129340398', field: 'messages', reason: 'invalid_value', ref: 'wamid.bad' },
      { entryId: '102290129340398', field: 'messages', reason: 'invalid_value', ref: 'wamid.S' },
    ]);
  });

  it('an unusable phone beside a user id: the user id keys the contact, the phone is null', () => {
    const value = {
      contacts: [{ wa_id: 'abc', user_id: 'user.H', profile: { name: 'Hidden' } }],
      messages: [message({ from: 'abc', from_user_id: 'user.H' })],
    };
    expect(normalizeEnvelope(messagesEnvelope(value)).events[0]).toMatchObject({ contact: { waId: null, userId: 'user.H', profileName: 'Hidden' } });
    const blankUser = { messages: [message({ from: '', from_user_id: '  ' })] };
    expect(normalizeEnvelope(messagesEnvelope(blankUser)).skipped).toEqual([
      { entryId: '102290129340398', field: 'messages', reason: 'invalid_value', ref: 'wamid.A' },
    ]);
  });

  it("waId stays the provider's digits (no +), whatever spelling toE164 accepts", () => {
    for (const from of ['16505551234', '+16505551234', ' 1 (650) 555-1234 ']) {
      expect(normalizeEnvelope(messagesEnvelope({ messages: [message({ from })] })).events[0], from).toMatchObject({ contact: { waId: '16505551234' } });
    }
  });

  it('system notices: an unusable new number or customer is an unreadable item, not a change to apply', () => {
    const system = (over: Record<string, unknown>, sys: Record<string, unknown>) =>
      normalizeEnvelope(messagesEnvelope({ messages: [message({ type: 'system', ...over, system: sys })] }));
    // D/webhooks/reference/messages/system: `wa_id` is the new number.
    expect(system({}, { type: 'user_changed_number', wa_id: 'not-a-number' })).toEqual({
      events: [],
      skipped: [{ entryId: '102290129340398', field: 'messages', reason: 'invalid_value', ref: 'wamid.A' }],
    });
    expect(system({}, { type: 'user_changed_number', wa_id: '12195555358' }).events[0]).toMatchObject({ change: 'number_changed', newWaId: '12195555358' });
    // The former components page: `customer` names the user when `from` does not.
    expect(system({ from: '' }, { type: 'customer_identity_changed', customer: '123' }).skipped).toMatchObject([{ reason: 'invalid_value', ref: 'wamid.A' }]);
    expect(system({ from: '' }, { type: 'customer_identity_changed', customer: '16505551234' }).events[0]).toMatchObject({
      change: 'identity_changed',
      contact: { waId: '16505551234' },
    });
  });
});

describe('content and keywords', () => {
  const first = (m: Record<string, unknown>) => normalizeEnvelope(messagesEnvelope({ messages: [message(m)] })).events[0]!;

  it.each([
    ['a quick-reply payload', { type: 'button', button: { payload: 'STOP', text: 'Not now' } }, 'stop'],
    ['a quick-reply label when the payload is not a keyword', { type: 'button', button: { payload: 'btn_2', text: 'Start' } }, 'start'],
    ['a list reply id', { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'unsubscribe', title: 'Leave the list' } } }, 'stop'],
    ['a button reply title', { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Stop.' } } }, 'stop'],
    ['typed text', { type: 'text', text: { body: ' start ' } }, 'start'],
    ['typed CANCEL (the SMS convention)', { type: 'text', text: { body: 'Cancel' } }, 'stop'],
    [
      'a button titled Cancel (an answer, not an opt-out)',
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'cancel', title: 'Cancel' } } },
      null,
    ],
    ['a quick reply labelled End', { type: 'button', button: { payload: 'END', text: 'End' } }, null],
    ['a quick reply whose first word is Stop', { type: 'button', button: { payload: 'promo_off', text: 'Stop promotions' } }, 'stop'],
    [
      'a button reply whose first word is Unsubscribe',
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b2', title: 'Unsubscribe me, please' } } },
      'stop',
    ],
    [
      'a list reply id whose first word is STOPALL.',
      { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'STOPALL. now', title: 'Leave' } } },
      'stop',
    ],
    ['a button starting with Start (START counts only whole)', { type: 'button', button: { payload: 'shop', text: 'Start shopping' } }, null],
    [
      'a button starting with Cancel (never on a button)',
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'c', title: 'Cancel my order' } } },
      null,
    ],
    ['a button word that only begins with stop', { type: 'button', button: { payload: 'w', text: 'Stopwatch deals' } }, null],
    ['typed text whose first word is stop (typed counts only whole)', { type: 'text', text: { body: 'Stop promotions' } }, null],
    ['a sentence containing stop', { type: 'text', text: { body: 'please stop by tomorrow' } }, null],
    ['a caption', { type: 'image', image: { id: 'm1', caption: 'STOP' } }, null],
  ])('STOP/START from %s', (_label, m, keyword) => {
    expect(first(m)).toMatchObject({ family: 'message.inbound', optKeyword: keyword });
  });

  it('every starter-pack quick reply that means opt-out is a stop; the others, and a Cancel button, are not', () => {
    // core/templates/starter-pack.ts offers these to customers. A tap arrives as a `button`
    // message with the label as text and, unless the sender set one, as payload
    // (D/webhooks/reference/messages/button: payload and text both "Unsubscribe"), or as an
    // interactive button_reply titled with it.
    const OPT_OUT = new Set(['Stop promotions', 'Stop promozioni']);
    const labels = STARTER_PACK.flatMap((t) => t.components.flatMap((c) => (c.buttons ?? []).filter((b) => b.type === 'QUICK_REPLY').map((b) => b.text!)));
    expect(labels.filter((l) => OPT_OUT.has(l))).toEqual([...OPT_OUT]);
    for (const label of [...labels, 'Cancel']) {
      const expected = OPT_OUT.has(label) ? 'stop' : null;
      expect(first({ type: 'button', button: { payload: label, text: label } }), label).toMatchObject({ family: 'message.inbound', optKeyword: expected });
      expect(first({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b', title: label } } }), label).toMatchObject({
        family: 'message.inbound',
        optKeyword: expected,
      });
    }
  });

  it('a flow response that is not JSON is kept as the raw string', () => {
    expect(
      first({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: '{not json' } } }),
    ).toMatchObject({
      content: { kind: 'interactive', replyType: 'nfm_reply', flow: { response: '{not json' } },
    });
  });

  it('an undocumented type, and a documented one whose object is unreadable, are kept verbatim as other', () => {
    expect(first({ type: 'poll', poll: { question: 'q?' } })).toMatchObject({
      type: 'poll',
      content: { kind: 'other', type: 'poll', value: { question: 'q?' } },
    });
    expect(first({ type: 'image', image: { caption: 'no id' } })).toMatchObject({
      type: 'image',
      content: { kind: 'other', type: 'image', value: { caption: 'no id' } },
    });
    expect(first({ type: 'request_welcome' })).toMatchObject({ content: { kind: 'other', type: 'request_welcome', value: null } });
  });

  it('an empty emoji removes the reaction, like an omitted one', () => {
    expect(first({ type: 'reaction', reaction: { message_id: 'wamid.O', emoji: '' } })).toMatchObject({ family: 'message.reaction', emoji: null });
  });
});

describe('values kept verbatim are bounded in depth', () => {
  /** `{"a":{"a":...1...}}`, `levels` objects deep, as raw JSON (built as text: no recursion needed). */
  const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const nested = (levels: number) => JSON.parse(nestedText(levels)) as unknown;
  const TRUNCATED = { truncated: 'nested deeper than 32 levels' };
  const first = (m: Record<string, unknown>) => normalizeEnvelope(messagesEnvelope({ messages: [message(m)] })).events[0]!;

  it('5000 levels deep: account values, other types, contact cards and flow responses keep a marker instead', () => {
    const deep = nested(5000);
    const account = normalizeEnvelope({ entry: [{ id: 'a', changes: [{ field: 'security', value: { event: 'PIN_CHANGED', detail: deep } }] }] });
    expect(account.events[0]).toMatchObject({ family: 'account.updated', event: 'PIN_CHANGED', value: TRUNCATED });
    const errorsOnly = normalizeEnvelope(messagesEnvelope({ errors: [{ code: 130429, error_data: deep }] }));
    expect(errorsOnly.events[0]).toMatchObject({ family: 'account.updated', errors: [{ code: 130429 }], value: TRUNCATED });
    expect(first({ type: 'poll', poll: deep })).toMatchObject({ content: { kind: 'other', type: 'poll', value: TRUNCATED } });
    const card = { name: { formatted_name: 'Barbara J. Johnson' } };
    expect(first({ type: 'contacts', contacts: [{ org: deep }, card] })).toMatchObject({ content: { kind: 'contacts', cards: [TRUNCATED, card] } });
    const flow = first({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: nestedText(5000) } } });
    expect(flow).toMatchObject({ content: { flow: { response: nestedText(5000) } } });
    // What the effects do with them (JSON.stringify, escapeNul) must not throw.
    for (const ev of [...account.events, ...errorsOnly.events, flow]) expect(() => JSON.stringify(ev)).not.toThrow();
  });

  it('32 levels are kept as they came, 33 are not', () => {
    expect(first({ type: 'poll', poll: nested(32) })).toMatchObject({ content: { value: nested(32) } });
    expect(first({ type: 'poll', poll: nested(33) })).toMatchObject({ content: { value: TRUNCATED } });
    const flow = (levels: number) => first({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { response_json: nestedText(levels) } } });
    expect(flow(32)).toMatchObject({ content: { flow: { response: nested(32) } } });
    expect(flow(33)).toMatchObject({ content: { flow: { response: nestedText(33) } } });
  });
});

describe('non-message fields', () => {
  it('use the entry time when the value has none, and null without one', () => {
    const value = { message_template_id: 7, new_quality_score: 'RED' };
    const at = normalizeEnvelope({ entry: [{ id: 'a', time: 1674864290, changes: [{ field: 'message_template_quality_update', value }] }] });
    expect(at.events[0]).toMatchObject({
      change: 'quality',
      providerTemplateId: '7',
      newScore: 'RED',
      previousScore: null,
      occurredAt: '2023-01-28T00:04:50.000Z',
    });
    const without = normalizeEnvelope({ entry: [{ id: 'a', changes: [{ field: 'message_template_quality_update', value }] }] });
    expect(without.events[0]).toMatchObject({ occurredAt: null });
  });

  // Premise changed (review of issue 9): the family's status is core/templates/status.ts
  // `mapProviderTemplateStatus`, the mapping the template effect and the sync use, so PENDING
  // and IN_APPEAL are `pending_approval` and an event it does not name is kept lower-cased.
  it('template statuses map as the template effect maps them and keep the event verbatim', () => {
    const status = (event: string, reason?: string) => {
      const out = normalizeEnvelope({
        entry: [{ id: 'a', changes: [{ field: 'message_template_status_update', value: { event, message_template_id: '9', reason } }] }],
      });
      return out.events[0] as Extract<NormalizedEvent, { change: 'status' }>;
    };
    const events = ['REINSTATED', 'ARCHIVED', 'PENDING_DELETION', 'DELETED', 'UNARCHIVED', 'IN_APPEAL', 'PENDING'];
    expect(events.map((e) => [status(e).event, status(e).status])).toEqual([
      ['REINSTATED', 'approved'],
      ['ARCHIVED', 'archived'],
      ['PENDING_DELETION', 'pending_deletion'],
      ['DELETED', 'deleted'],
      ['UNARCHIVED', 'unarchived'],
      ['IN_APPEAL', 'pending_approval'],
      ['PENDING', 'pending_approval'],
    ]);
    for (const event of [...events, 'APPROVED', 'REJECTED', 'PAUSED', 'FLAGGED', 'Disabled'])
      expect(status(event).status, event).toBe(mapProviderTemplateStatus(event));
    // `providerReason`: NONE in any case and blanks are no reason.
    expect(['NONE', 'none', '  ', 'INVALID_FORMAT'].map((r) => status('REJECTED', r).reason)).toEqual([null, null, null, 'INVALID_FORMAT']);
  });

  it('account summaries use enumerations only: free text and hostile tokens stay out', () => {
    const value = { event: 'ACCOUNT_VIOLATION<script>', violation_info: { violation_type: 'Jane Doe +1 555' }, requester: '61555822107539' };
    const [ev] = normalizeEnvelope({ entry: [{ id: 'a', changes: [{ field: 'account_update', value }] }] }).events;
    expect(ev).toMatchObject({
      family: 'account.updated',
      event: 'ACCOUNT_VIOLATION<script>',
      summary: 'Account update ACCOUNT_VIOLATIONscript: JaneDoe1555.',
    });
    expect(JSON.stringify(summarizeEvent(ev!))).not.toContain('61555822107539');
  });
});

describe('opensServiceWindow: which events open or extend the 24-hour window', () => {
  const docs = (name: string) => normalizeBytes(name, providerDocsExample(name)).events[0]!;
  // Premise changed (review of issue 9): the provider's unsupported example is an edit
  // (`unsupported.type: "edit"`), and an edit must not reopen the window.
  it.each([
    ['a text', 'messages_text', true],
    ['an edit delivered as unsupported', 'messages_unsupported_edit', false],
    ['a quick-reply tap', 'messages_button_quick_reply', true],
    ['a reaction that adds an emoji', 'messages_reaction', true],
    ['a reaction removal', 'messages_reaction_removed', false],
    ['an edit', 'messages_edit_coexistence', false],
    ['a revoke', 'messages_revoke_coexistence', false],
    ['a system notice', 'messages_system_user_changed_number', false],
    ['an errors-only value', 'messages_errors_system_level', false],
    ['a status', 'status_failed_131049', false],
    ['a business-app echo (our own message)', 'smb_message_echoes_text', false],
    ['a marketing preference', 'user_preferences_marketing_resume', false],
  ])('%s -> %s', (_label, name, opens) => {
    expect(opensServiceWindow(docs(name))).toBe(opens);
  });

  it('an unsupported message of another kind (a poll: the user did write) opens it; the edit stays an inbound message without one', () => {
    const unsupported = (type: string) => normalizeEnvelope(messagesEnvelope({ messages: [message({ type: 'unsupported', unsupported: { type } })] })).events;
    expect(unsupported('poll').map((e) => e.family)).toEqual(['message.inbound', 'conversation.updated']);
    expect(unsupported('edit')).toMatchObject([{ family: 'message.inbound', type: 'unsupported', content: { kind: 'unsupported', unsupportedType: 'edit' } }]);
  });
});

describe('determinism and privacy', () => {
  it('is deterministic for every spec fixture, and summaries carry no phone numbers or bodies', () => {
    const names = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(names.length).toBe(13);
    for (const name of names) {
      expect(load(name)).toEqual(load(name));
      const summaries = JSON.stringify(load(name).events.map(summarizeEvent));
      expect(summaries).not.toContain('16505551234');
      expect(summaries).not.toContain('color');
    }
  });
});

// decodeStoredEnvelope was removed (nothing but this test used it: the worker calls
// parseProviderEnvelope itself); the same classification, through the parser the worker uses.
describe('decoding a stored body', () => {
  it('classifies invalid JSON and a wrong shape as permanent failures, in words', () => {
    expect(parseProviderEnvelope('{nope')).toMatchObject({ ok: false, summary: { topic: 'invalid_json' }, issues: ['the body is not UTF-8 JSON'] });
    expect(parseProviderEnvelope('{"object":"page","entry":[]}')).toMatchObject({
      ok: false,
      summary: { topic: 'invalid_payload' },
      issues: [expect.stringMatching(/^the envelope's object is "page"/)],
    });
    expect(parseProviderEnvelope('{"object":"messaging_business_account","entry":[]}')).toMatchObject({ ok: true });
    expect(parseProviderEnvelope('{"object":"whatsapp_business_account","entry":[]}')).toMatchObject({ ok: true });
  });
});
