import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProviderEnvelope, type ProviderEnvelope } from './envelope';
import { HANDLED_FIELDS } from './normalize';
import { ORDERING_KEY_PART_MAX, webhookOrderingKey } from './ordering';
import { providerDocsExample, providerDocsExamples } from './testing/provider-docs-examples';

/**
 * The ordering key decides which stored webhooks the pipeline must apply in receipt order (same
 * key) and which it may apply side by side (different keys): one conversation (business number
 * and customer), one template, or one account.
 */
const SPEC = new URL('./fixtures/', import.meta.url);
const spec = (name: string) => readFileSync(new URL(`${name}.json`, SPEC));

function envelopeOf(raw: Buffer | string | object): ProviderEnvelope {
  const parsed = parseProviderEnvelope(Buffer.isBuffer(raw) || typeof raw === 'string' ? raw : JSON.stringify(raw));
  if (!parsed.ok) throw new Error(parsed.issues.join('; '));
  return parsed.envelope;
}
const keyOf = (raw: Buffer | string | object) => webhookOrderingKey(envelopeOf(raw));

const WABA = '102290129340398';
const NUMBER = '106540352242922';
const SHEENA = `conv:${NUMBER}:16505551234`;

describe('webhookOrderingKey over the fixtures', () => {
  const cases: [name: string, raw: () => Buffer, key: string][] = [
    ['inbound text', () => spec('inbound-text'), SHEENA],
    ['inbound STOP', () => spec('inbound-stop'), SHEENA],
    ['status read', () => spec('status-read'), SHEENA],
    ['status failed 131047', () => spec('status-failed-131047'), SHEENA],
    ['echo sent from the business app (the customer is `to`)', () => providerDocsExample('smb_message_echoes_text'), SHEENA],
    ['marketing preference (same subscription as STOP)', () => providerDocsExample('user_preferences_marketing_resume'), SHEENA],
    ['system notice naming the customer', () => providerDocsExample('constructed_messages_system_customer_identity_changed'), SHEENA],
    ['template status update (numeric template id)', () => spec('template-approved'), `tpl:${WABA}:1689556908129832`],
    ['template category update', () => providerDocsExample('template_category_update_completed'), `tpl:${WABA}:278077987957091`],
    ['template quality update', () => providerDocsExample('message_template_quality_update'), `tpl:${WABA}:806312974732579`],
    ['account update', () => spec('unknown-field'), `acct:${WABA}`],
    ['account update (partner added)', () => providerDocsExample('account_update_partner_added_REPAIRED'), 'acct:2949482758682047'],
    ['value-level errors only (about the number, no customer)', () => spec('async-error'), `acct:${WABA}`],
    ['hidden number: the business-scoped user id', () => providerDocsExample('bsuid_messages_text_username_hidden_number'), `conv:${NUMBER}:user.93737...`],
    [
      'status sent to a user id (empty recipient_id)',
      () => providerDocsExample('bsuid_status_delivered_sent_to_bsuid_empty_wa_id'),
      `conv:${NUMBER}:user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6`,
    ],
    ['status with both phone and user id: the phone', () => providerDocsExample('bsuid_status_delivered_username_phone_known'), SHEENA],
  ];
  it.each(cases)('%s', (_name, raw, key) => {
    expect(keyOf(raw())).toBe(key);
  });

  it('an inbound message and the statuses of our replies to the same customer on the same number share a key', () => {
    const inbound = keyOf(spec('inbound-text'));
    for (const status of ['status-sent', 'status-delivered', 'status-read', 'status-failed-131056']) expect(keyOf(spec(status)), status).toBe(inbound);
  });

  it('every provider-documented example and spec fixture that parses gets a key, of the kind its field calls for', () => {
    const all = [
      ...providerDocsExamples().map((e) => ({ name: e.name, raw: readFileSync(e.url) })),
      ...readdirSync(SPEC)
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ name: f, raw: readFileSync(new URL(f, SPEC)) })),
    ];
    let keyed = 0;
    for (const { name, raw } of all) {
      // A few published examples are not envelopes (no `object`): the ingress stores null for them.
      const parsed = parseProviderEnvelope(raw);
      if (!parsed.ok) continue;
      const envelope = parsed.envelope;
      const field = envelope.entry[0]!.changes[0]!.field;
      const key = webhookOrderingKey(envelope);
      const kind = ['messages', 'smb_message_echoes', 'user_preferences'].includes(field) ? /^(conv|acct):/ : field.includes('template') ? /^tpl:/ : /^acct:/;
      expect(key, name).toMatch(kind);
      keyed++;
    }
    expect(keyed).toBeGreaterThan(50);
  });
});

describe('webhookOrderingKey rules', () => {
  const messages = (value: Record<string, unknown>, entryId = WABA) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: entryId, changes: [{ field: 'messages', value }] }],
  });
  const metadata = { phone_number_id: NUMBER };

  it('different customers, or the same customer on different numbers, get different keys', () => {
    const a = keyOf(messages({ metadata, statuses: [{ recipient_id: '16505551234' }] }));
    const b = keyOf(messages({ metadata, statuses: [{ recipient_id: '16505559999' }] }));
    const c = keyOf(messages({ metadata: { phone_number_id: '999' }, statuses: [{ recipient_id: '16505551234' }] }));
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('no phone_number_id: the entry (WABA) id stands in for the number', () => {
    expect(keyOf(messages({ messages: [{ from: '16505551234' }] }))).toBe(`conv:${WABA}:16505551234`);
    expect(keyOf(messages({ metadata: { phone_number_id: 42 }, messages: [{ from: '16505551234' }] }))).toBe(`conv:${WABA}:16505551234`);
  });

  it('phones are read as the normalizer reads them: the provider digits, a hidden "" or a non-string ignored', () => {
    expect(keyOf(messages({ metadata, messages: [{ from: '+1 650-555-1234' }] }))).toBe(SHEENA);
    expect(keyOf(messages({ metadata, messages: [{ from: 16505551234, from_user_id: 'user.A' }] }))).toBe(`conv:${NUMBER}:user.A`);
    expect(keyOf(messages({ metadata, messages: [{ from: '', from_user_id: 'user.A' }] }))).toBe(`conv:${NUMBER}:user.A`);
    // The contacts[] entry naming the user id fills in the phone, as resolveIdentity does.
    expect(keyOf(messages({ metadata, contacts: [{ wa_id: '16505551234', user_id: 'user.A' }], messages: [{ from: '', from_user_id: 'user.A' }] }))).toBe(
      SHEENA,
    );
  });

  it('the first item naming someone decides; contacts[] alone is the last resort; nobody: the account', () => {
    expect(keyOf(messages({ metadata, messages: [{ from: null }, { from: '16505551234' }] }))).toBe(SHEENA);
    expect(keyOf(messages({ metadata, messages: [{}], statuses: [{ recipient_id: '16505551234' }] }))).toBe(SHEENA);
    expect(keyOf(messages({ metadata, contacts: [{ wa_id: '16505551234' }] }))).toBe(SHEENA);
    expect(keyOf(messages({ metadata, contacts: [{ wa_id: 1 }], messages: 'x', statuses: { a: 1 } }))).toBe(`acct:${WABA}`);
    expect(keyOf(messages({ metadata, messages: [{ from: '' }] }))).toBe(`acct:${WABA}`);
  });

  it('a conversation outranks a template, which outranks the account, whatever the change order', () => {
    const envelope = {
      object: 'whatsapp_business_account',
      entry: [
        { id: 'w1', changes: [{ field: 'account_update', value: {} }] },
        { id: 'w2', changes: [{ field: 'message_template_status_update', value: { message_template_id: '7' } }] },
        { id: 'w3', changes: [{ field: 'messages', value: { metadata, statuses: [{ recipient_id: '16505551234' }] } }] },
      ],
    };
    expect(keyOf(envelope)).toBe(SHEENA);
    expect(keyOf({ ...envelope, entry: envelope.entry.slice(0, 2) })).toBe('tpl:w2:7');
    expect(keyOf({ ...envelope, entry: envelope.entry.slice(0, 1) })).toBe('acct:w1');
  });

  it('a template field without a usable template id is about the account', () => {
    for (const id of [undefined, null, '', -1, 1.5, { a: 1 }]) {
      expect(
        keyOf({
          object: 'whatsapp_business_account',
          entry: [{ id: WABA, changes: [{ field: 'message_template_status_update', value: { message_template_id: id } }] }],
        }),
      ).toBe(`acct:${WABA}`);
    }
  });

  it('nothing to order by: null', () => {
    expect(keyOf({ object: 'whatsapp_business_account', entry: [] })).toBeNull();
    expect(keyOf({ object: 'whatsapp_business_account', entry: [{ id: WABA, changes: [] }] })).toBeNull();
  });

  it('each part is capped at 128 characters, and what PostgreSQL text cannot hold is replaced', () => {
    const long = keyOf(messages({ metadata: { phone_number_id: 'p'.repeat(10_000) }, messages: [{ from: '', from_user_id: '😀'.repeat(500) }] }))!;
    expect(long).toBe(`conv:${'p'.repeat(128)}:${'😀'.repeat(128)}`);
    const hostile = keyOf(messages({ metadata: { phone_number_id: 'a\u0000b' }, messages: [{ from: '', from_user_id: 'x\ud800y' }] }))!;
    expect(hostile).toBe('conv:a\uFFFDb:x\uFFFDy');
  });
});

describe('webhookOrderingKey is total', () => {
  /** What the callers rely on: a short, storable key of a known kind, or null. */
  function check(envelope: ProviderEnvelope): void {
    const key = webhookOrderingKey(envelope);
    if (key === null) return;
    expect(key).toMatch(/^(conv|tpl|acct):/);
    expect(key).not.toContain('\u0000');
    expect(Buffer.from(key, 'utf8').toString('utf8')).toBe(key);
    expect(Array.from(key).length).toBeLessThanOrEqual(5 + 2 * ORDERING_KEY_PART_MAX + 1);
    expect(webhookOrderingKey(envelope)).toBe(key);
  }

  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom('', '\u0000', '\ud800', '9'.repeat(400), -1, 1e308, '__proto__', 'constructor', [null], { __proto__: null }),
  );

  it('arbitrary JSON under every handled field (and unhandled ones): no throw, string or null', () => {
    const field = fc.constantFrom(...HANDLED_FIELDS, 'x', '__proto__', 'constructor');
    const entry = fc.record({
      id: fc.oneof(fc.string({ minLength: 1 }), fc.constant(WABA)),
      changes: fc.array(fc.record({ field, value: fc.jsonValue() }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 3 }), (entries) => {
        const parsed = parseProviderEnvelope(JSON.stringify({ object: 'whatsapp_business_account', entry: entries }));
        expect(parsed.ok).toBe(true);
        if (parsed.ok) check(parsed.envelope);
      }),
      { numRuns: 2000 },
    );
  });

  it('conversation values with arbitrary parts: no throw, string or null', () => {
    const part = fc.oneof(fc.jsonValue(), hostile);
    const item = fc.record(
      {
        from: part,
        from_user_id: part,
        recipient_id: part,
        recipient_user_id: part,
        to: part,
        to_user_id: part,
        wa_id: part,
        user_id: part,
        type: part,
        system: part,
      },
      { requiredKeys: [] },
    );
    const value = fc.record(
      {
        metadata: fc.oneof(part, fc.record({ phone_number_id: part }, { requiredKeys: [] })),
        contacts: fc.oneof(part, fc.array(item, { maxLength: 2 })),
        messages: fc.oneof(part, fc.array(item, { maxLength: 3 })),
        statuses: fc.oneof(part, fc.array(item, { maxLength: 3 })),
        message_echoes: fc.oneof(part, fc.array(item, { maxLength: 2 })),
        user_preferences: fc.oneof(part, fc.array(item, { maxLength: 2 })),
        message_template_id: part,
      },
      { requiredKeys: [] },
    );
    const field = fc.constantFrom('messages', 'smb_message_echoes', 'user_preferences', 'message_template_status_update', 'account_update');
    fc.assert(
      fc.property(field, value, fc.string({ minLength: 1 }), (f, v, id) => {
        const parsed = parseProviderEnvelope(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id, changes: [{ field: f, value: v }] }] }));
        if (parsed.ok) check(parsed.envelope);
      }),
      { numRuns: 3000 },
    );
  });

  it('any JSON at all, typed as an envelope, never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const key = webhookOrderingKey(v as ProviderEnvelope);
        expect(key === null || typeof key === 'string').toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
