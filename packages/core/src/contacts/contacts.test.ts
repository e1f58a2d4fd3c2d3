import { describe, expect, it } from 'vitest';
import { buildAssistantPrompt, citedContexts, readChatCompletion, searchTerms, toPrefixTsQuery } from './assistant';
import { anonymousPhoneToken, envelopePhoneNeedles } from './privacy';
import { classifyOptKeyword, subscriberStatusAfter, toE164 } from './subscriber';

describe('opt-out and opt-in keywords', () => {
  it('matches the whole trimmed text, any case', () => {
    for (const t of ['STOP', 'stop', ' Stop\n', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit', 'ANNULLA', 'annulla', 'stop!']) expect(classifyOptKeyword(t), t).toBe('stop');
    for (const t of ['START', ' start ', 'Unstop', 'subscribe']) expect(classifyOptKeyword(t), t).toBe('start');
    for (const t of ['please stop', 'stop it', 'the end.', '', null, undefined, 'STARTING', 'annullare']) expect(classifyOptKeyword(t), String(t)).toBeNull();
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
});

describe('assistant helpers', () => {
  it('builds a safe prefix tsquery from a question', () => {
    expect(searchTerms("Who asked about the refund? Sheena's order & (color) | x")).toEqual(['asked', 'refund', 'sheena', 'order', 'color']);
    expect(toPrefixTsQuery(['refund', 'color'])).toBe('refund:* | color:*');
    expect(toPrefixTsQuery(searchTerms('who? what!'))).toBeNull();
  });
  it('builds the prompt from context blocks and reads completions', () => {
    const msgs = buildAssistantPrompt('q?', [{ contactId: 'ctr_1', conversationId: 'cnv_1', contactName: 'A', phoneNumber: '+1', subscriberStatus: 'subscribed', messages: [{ direction: 'inbound', sentAt: 't', text: 'hi\nthere' }] }]);
    expect(msgs[1]!.content).toContain('[contact ctr_1 | conversation cnv_1] A +1 (subscribed)\n  t contact: hi there');
    expect(readChatCompletion({ choices: [{ message: { content: ' ok ' } }] })).toBe('ok');
    expect(readChatCompletion({ choices: [] })).toBeNull();
    expect(readChatCompletion('nope')).toBeNull();
    const ctx = [{ contactId: 'ctr_1', conversationId: 'cnv_1' }, { contactId: 'ctr_2', conversationId: null }];
    expect(citedContexts('see ctr_2', ctx)).toEqual([ctx[1]]);
    expect(citedContexts('no ids', ctx)).toEqual(ctx);
  });
});
