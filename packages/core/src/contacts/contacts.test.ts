import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAssistantPrompt, citedContexts, readChatCompletion, searchTerms, toPrefixTsQuery } from './assistant';
import { anonymousPhoneToken, envelopeIdentityNeedles, envelopePhoneNeedles } from './privacy';
import { REDACTED, redactBodyText, redactContactIdentity, redactMessageContent, redactPersonalData } from './redaction';
import { classifyButtonOptKeyword, classifyOptKeyword, STOP_KEYWORDS, subscriberStatusAfter, toE164 } from './subscriber';

describe('opt-out and opt-in keywords', () => {
  it('matches the whole trimmed text, any case', () => {
    for (const t of ['STOP', 'stop', ' Stop\n', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit', 'ANNULLA', 'annulla', 'stop!'])
      expect(classifyOptKeyword(t), t).toBe('stop');
    for (const t of ['START', ' start ', 'Unstop', 'subscribe']) expect(classifyOptKeyword(t), t).toBe('start');
    for (const t of ['please stop', 'stop it', 'the end.', '', null, undefined, 'STARTING', 'annullare']) expect(classifyOptKeyword(t), String(t)).toBeNull();
  });
  it('on a button: a first word STOP/STOPALL/UNSUBSCRIBE opts out, START/UNSTOP/SUBSCRIBE only whole, CANCEL/END/QUIT/ANNULLA never', () => {
    for (const t of ['Stop promotions', 'Stop promozioni', 'STOP', ' stop. ', 'Stopall', 'UNSUBSCRIBE me', 'Stop, please', 'unsubscribe!'])
      expect(classifyButtonOptKeyword([t]), t).toBe('stop');
    for (const t of ['Start', 'unstop', 'SUBSCRIBE.']) expect(classifyButtonOptKeyword([t]), t).toBe('start');
    for (const t of ['Start shopping', 'Subscribe to news', 'Cancel', 'Cancel my order', 'End', 'quit', 'Annulla', 'Stopwatch', 'Please stop', '', null]) {
      expect(classifyButtonOptKeyword([t]), String(t)).toBeNull();
    }
    // Payload then label (or id then title): the first that carries a keyword decides.
    expect(classifyButtonOptKeyword(['btn_2', 'Start'])).toBe('start');
    expect(classifyButtonOptKeyword(['STOP', 'Not now'])).toBe('stop');
    // Every word that opts out on a button opts out typed, too.
    for (const t of ['Stop', 'Stopall', 'Unsubscribe']) expect(STOP_KEYWORDS).toContain(t.toUpperCase());
  });
  it('never lifts a block', () => {
    expect(subscriberStatusAfter('blocked', 'start')).toBe('blocked');
    expect(subscriberStatusAfter('subscribed', 'stop')).toBe('unsubscribed');
    expect(subscriberStatusAfter('unsubscribed', 'start')).toBe('subscribed');
  });
});

describe('phone numbers', () => {
  it('normalizes provider ids to E.164 with +', () => {
    expect(toE164('16505551234')).toBe('+16505551234');
    expect(toE164('+39 333 111 2222')).toBe('+393331112222');
    for (const bad of ['', 'abc', '0123456789', '123', '1'.repeat(16), null]) expect(toE164(bad)).toBeNull();
  });
  it('erasure tokens are random and unrelated to the number', () => {
    const a = anonymousPhoneToken();
    expect(a).toMatch(/^anon_[0-9a-f]{32}$/);
    expect(anonymousPhoneToken()).not.toBe(a);
    expect(envelopePhoneNeedles('+16505551234')).toEqual(['"16505551234"', '"+16505551234"']);
  });
  it('envelopes name a contact by phone number or business-scoped user id; an erasure token names nobody', () => {
    // D/business-scoped-user-ids (docs/provider-reference/webhooks/bsuid_status_delivered_sent_to_bsuid_empty_wa_id.json).
    const userId = 'user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6';
    expect(envelopeIdentityNeedles({ phoneNumber: null, providerUserId: userId })).toEqual([`"${userId}"`]);
    expect(envelopeIdentityNeedles({ phoneNumber: '+16505551234', providerUserId: userId })).toEqual(['"16505551234"', '"+16505551234"', `"${userId}"`]);
    expect(envelopeIdentityNeedles({ phoneNumber: anonymousPhoneToken(), providerUserId: null })).toEqual([]);
  });
});

describe('viewer redaction of identities and content', () => {
  it('masks the number, hides user id and username, keeps null as null', () => {
    expect(redactContactIdentity({ phoneNumber: '+16505551234', providerUserId: 'user.93737...', username: '@realsheenanelson', countryCode: 'US' })).toEqual({
      phoneNumber: '+16******234',
      providerUserId: REDACTED,
      username: REDACTED,
      countryCode: 'US',
    });
    expect(redactContactIdentity({ phoneNumber: null, providerUserId: 'user.93737...', username: null })).toEqual({
      phoneNumber: null,
      providerUserId: REDACTED,
      username: null,
    });
  });
  it('raw bodies: user ids and usernames are not operational keys (bsuid_messages_text_username_hidden_number.json)', () => {
    const value = {
      contacts: [{ profile: { name: 'Sheena Nelson', username: '@realsheenanelson', country_code: 'US' }, wa_id: '', user_id: 'user.93737...' }],
      messages: [{ from: '', from_user_id: 'user.93737...', type: 'text' }],
    };
    const text = JSON.stringify(redactPersonalData(value));
    for (const secret of ['@realsheenanelson', 'user.93737', 'Sheena']) expect(text).not.toContain(secret);
    expect(text).toContain('"type":"text"');
  });
  it('raw bodies: numbers are hidden too, except operational ones (docs/provider-reference/webhooks/messages_location.json)', () => {
    // D/webhooks/reference/messages/location: a location's coordinates say where someone is.
    const raw = readFileSync(new URL('../../../../docs/provider-reference/webhooks/messages_location.json', import.meta.url));
    const body = JSON.parse(redactBodyText(raw)!);
    const value = body.entry[0].changes[0].value;
    expect(value.messages[0]).toMatchObject({
      type: 'location',
      timestamp: expect.stringMatching(/^\d+$/),
      location: { latitude: REDACTED, longitude: REDACTED, name: REDACTED, address: REDACTED },
    });
    for (const coordinate of ['37.44', '122.16']) expect(JSON.stringify(body)).not.toContain(coordinate);
    // Operational numbers stay: entry time, error codes, template ids, limits.
    const operational = {
      entry: [
        {
          time: 1739321024,
          changes: [
            {
              value: {
                message_template_id: 1689556908129832,
                errors: [{ code: 130429, title: 'Rate limit hit' }],
                max_daily_conversations_per_business: 2000,
                order: { product_items: [{ quantity: 2, item_price: 30 }] },
              },
            },
          ],
        },
      ],
    };
    expect(redactPersonalData(operational)).toEqual({
      entry: [
        {
          time: 1739321024,
          changes: [
            {
              value: {
                message_template_id: 1689556908129832,
                errors: [{ code: 130429, title: 'Rate limit hit' }],
                max_daily_conversations_per_business: 2000,
                order: { product_items: [{ quantity: REDACTED, item_price: REDACTED }] },
              },
            },
          ],
        },
      ],
    });
  });
  it('raw bodies and stored content share one redactor: the same shape rules, each with its own allow-list', () => {
    const shape = { a: [1, 'x', true, null, { b: 2 }], kind: 'location', type: 'text' };
    expect(redactPersonalData(shape)).toEqual({ a: [REDACTED, REDACTED, true, null, { b: REDACTED }], kind: REDACTED, type: 'text' });
    expect(redactMessageContent(shape)).toEqual({ a: [REDACTED, REDACTED, true, null, { b: REDACTED }], kind: 'location', type: 'text' });
  });
  it('stored content keeps its kind, hides words, ids and coordinates (messages_location.json)', () => {
    const location = {
      kind: 'location',
      latitude: 37.44221496582,
      longitude: -122.16165924072,
      name: 'Philz Coffee',
      address: '101 Forest Ave, Palo Alto, CA 94301',
      url: null,
    };
    expect(redactMessageContent(location)).toEqual({ kind: 'location', latitude: REDACTED, longitude: REDACTED, name: REDACTED, address: REDACTED, url: null });
    expect(
      redactMessageContent({ kind: 'media', mediaKind: 'audio', id: '1908647269898587', mimeType: 'audio/ogg; codecs=opus', voice: true, caption: null }),
    ).toEqual({ kind: 'media', mediaKind: 'audio', id: REDACTED, mimeType: 'audio/ogg; codecs=opus', voice: true, caption: null });
  });
});

describe('assistant helpers', () => {
  it('builds a safe prefix tsquery from a question', () => {
    expect(searchTerms("Who asked about the refund? Sheena's order & (color) | x")).toEqual(['asked', 'refund', 'sheena', 'order', 'color']);
    expect(toPrefixTsQuery(['refund', 'color'])).toBe('refund:* | color:*');
    expect(toPrefixTsQuery(searchTerms('who? what!'))).toBeNull();
  });
  it('builds the prompt from context blocks and reads completions', () => {
    const msgs = buildAssistantPrompt('q?', [
      {
        contactId: 'ctr_1',
        conversationId: 'cnv_1',
        contactName: 'A',
        phoneNumber: '+1',
        subscriberStatus: 'subscribed',
        messages: [{ direction: 'inbound', sentAt: 't', text: 'hi\nthere' }],
      },
    ]);
    expect(msgs[1]!.content).toContain('[contact ctr_1 | conversation cnv_1] A +1 (subscribed)\n  t contact: hi there');
    expect(readChatCompletion({ choices: [{ message: { content: ' ok ' } }] })).toBe('ok');
    expect(readChatCompletion({ choices: [] })).toBeNull();
    expect(readChatCompletion('nope')).toBeNull();
    const ctx = [
      { contactId: 'ctr_1', conversationId: 'cnv_1' },
      { contactId: 'ctr_2', conversationId: null },
    ];
    expect(citedContexts('see ctr_2', ctx)).toEqual([ctx[1]]);
    expect(citedContexts('no ids', ctx)).toEqual(ctx);
  });
});
