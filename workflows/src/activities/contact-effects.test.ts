import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeEnvelope, type NormalizableEnvelope } from '@mos/core';
import { createLogger } from '@mos/config';
import {
  ensureContact, ensureConversation, getMessageByProviderId, insertMessage, listMessageStatuses, updateContact, upsertWorkspace,
} from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { applyFamily, composeEffects, type FamilyEffects } from './effects';
import { createContactEffects } from './contact-effects';

const FIXTURES = new URL('../../../packages/core/src/webhooks/fixtures/', import.meta.url);
type Envelope = NormalizableEnvelope & { entry: { changes: { value: any }[] }[] };
const fixture = (name: string): Envelope => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));
const OUTBOUND_ID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';
const PHONE = '+16505551234';
const unix = (iso: string) => String(Date.parse(iso) / 1000);

/** An inbound text from the fixture's contact with our own id, body and time. */
function inboundText(id: string, body: string, at: string, from = '16505551234'): Envelope {
  const env = fixture('inbound-text');
  const value = env.entry[0]!.changes[0]!.value;
  value.contacts[0].wa_id = from;
  Object.assign(value.messages[0], { id, from, timestamp: unix(at), text: { body } });
  return env;
}

describe('contact, conversation and message effects against a real database', () => {
  let tdb: TestDatabase;
  let effects: FamilyEffects;
  let ws: string;
  let other: string;

  const apply = async (workspaceId: string, env: NormalizableEnvelope) => {
    for (const family of normalizeEnvelope(env).events) await applyFamily(effects, workspaceId, family);
  };
  const counts = async () => {
    const res = await tdb.pool.query(`SELECT
      (SELECT count(*)::int FROM contacts) AS contacts, (SELECT count(*)::int FROM conversations) AS conversations,
      (SELECT count(*)::int FROM messages) AS messages, (SELECT count(*)::int FROM message_statuses) AS statuses,
      (SELECT count(*)::int FROM conversation_windows) AS windows`);
    return res.rows[0]!;
  };
  const contactOf = async (workspaceId: string, phone = PHONE) =>
    (await tdb.pool.query('SELECT * FROM contacts WHERE workspace_id = $1 AND phone_number = $2', [workspaceId, phone])).rows[0];
  const conversationOf = async (workspaceId: string, contactId: string) =>
    (await tdb.pool.query('SELECT * FROM conversations WHERE workspace_id = $1 AND contact_id = $2', [workspaceId, contactId])).rows[0];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    effects = composeEffects(createContactEffects({ db: tdb.db, log: createLogger({ name: 'test', level: 'silent' }) }));
    ws = (await upsertWorkspace(tdb.db, 'effects-a')).workspace.id;
    other = (await upsertWorkspace(tdb.db, 'effects-b')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('message.inbound: upserts the contact, opens the window and stores a text message', async () => {
    await apply(ws, fixture('inbound-text'));
    const contact = await contactOf(ws);
    expect(contact).toMatchObject({ name: 'Sheena Nelson', profile_name: 'Sheena Nelson', subscriber_status: 'subscribed' });
    expect(contact.id).toMatch(/^ctr_/);
    const conv = await conversationOf(ws, contact.id);
    const sentAt = new Date(1749416383 * 1000);
    expect(conv.window_opened_at).toEqual(sentAt);
    expect(conv.window_expires_at).toEqual(new Date(sentAt.getTime() + 24 * 3600_000));
    const msg = await getMessageByProviderId(tdb.db, ws, 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=');
    expect(msg).toMatchObject({ direction: 'inbound', type: 'text', body: 'Does it come in another color?', caption: null, conversationId: conv.id, sentAt });
  });

  it('message.inbound: media reference and reply context', async () => {
    await apply(ws, fixture('inbound-image'));
    await apply(ws, fixture('inbound-button-reply'));
    const image = await getMessageByProviderId(tdb.db, ws, 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=');
    expect(image).toMatchObject({ type: 'image', body: null, caption: 'Here is the damaged box', mediaId: '1003383421387256', mediaMimeType: 'image/jpeg' });
    const reply = await getMessageByProviderId(tdb.db, ws, 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUI5NkQ3QjM2MUFBQjY0OUM3RAA=');
    expect(reply).toMatchObject({ type: 'interactive', body: 'Yes, confirm', contextMessageId: 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI3NTI5QjAwNTA2MjU5NzY5NEMA', payload: { reply: { kind: 'button_reply', id: 'confirm_yes' } } });
    // One contact and one conversation for all three messages; the window follows the latest.
    const contact = await contactOf(ws);
    const conv = await conversationOf(ws, contact.id);
    expect(conv.window_opened_at).toEqual(new Date(1750263773 * 1000));
    expect(conv.window_expires_at).toEqual(new Date((1750263773 + 86400) * 1000));
    expect((await counts()).contacts).toBe(1);
  });

  it('a late older inbound message never moves the window backwards past a gap', async () => {
    const contact = await contactOf(ws);
    const before = await conversationOf(ws, contact.id);
    await apply(ws, inboundText('wamid.late-old', 'an old one', '2025-01-01T00:00:00Z'));
    const after = await conversationOf(ws, contact.id);
    expect(after.window_opened_at).toEqual(before.window_opened_at);
    expect(after.window_expires_at).toEqual(before.window_expires_at);
    expect(after.last_message_at).toEqual(before.last_message_at);
  });

  it('message.status: out of order and duplicated statuses for a message we do not know yet', async () => {
    for (const name of ['status-read', 'status-delivered', 'status-read', 'status-sent', 'status-delivered']) await apply(ws, fixture(name));
    expect(await getMessageByProviderId(tdb.db, ws, OUTBOUND_ID)).toBeUndefined();
    const history = await listMessageStatuses(tdb.db, ws, OUTBOUND_ID);
    expect(history.map((h) => h.status)).toEqual(['sent', 'delivered', 'read']);
    expect(history.every((h) => h.contactId === history[0]!.contactId && h.contactId)).toBe(true);

    // The send path stores the message later: the history joins it as `read`.
    const contact = await ensureContact(tdb.db, ws, PHONE);
    const conv = await ensureConversation(tdb.db, ws, contact.id);
    const { message } = await insertMessage(tdb.db, ws, {
      conversationId: conv.id, contactId: contact.id, direction: 'outbound', providerMessageId: OUTBOUND_ID, type: 'template', body: 'Your order shipped', sentAt: new Date(1750263799 * 1000),
    });
    expect(message).toMatchObject({ status: 'read', statusRank: 3, failedAt: null });

    // A late `sent` and a replayed `delivered` never lower it.
    await apply(ws, fixture('status-sent'));
    await apply(ws, fixture('status-delivered'));
    expect(await getMessageByProviderId(tdb.db, ws, OUTBOUND_ID)).toMatchObject({ status: 'read', statusRank: 3 });
    expect(await listMessageStatuses(tdb.db, ws, OUTBOUND_ID)).toHaveLength(3);
  });

  it('message.status failed: kept apart from the rank, with the provider error code', async () => {
    await apply(ws, fixture('status-failed-131056'));
    await apply(ws, fixture('status-failed-131047'));
    const msg = await getMessageByProviderId(tdb.db, ws, OUTBOUND_ID);
    // The first failure (131047 at :05) wins over the later one, whatever the arrival order.
    expect(msg).toMatchObject({ status: 'read', statusRank: 3, errorCode: 131047, failedAt: new Date(1750263805 * 1000) });
    const failures = (await listMessageStatuses(tdb.db, ws, OUTBOUND_ID)).filter((h) => h.status === 'failed');
    expect(failures.map((f) => [f.errorCode, f.errorTitle])).toEqual([
      [131047, 'Re-engagement message'],
      [131056, '(Business Account, Consumer Account) pair rate limit hit'],
    ]);
    expect(failures[0]!.errorDetails).toMatch(/24 hours/);
  });

  it('conversation.updated: provider window, origin and pricing from statuses', async () => {
    const contact = await contactOf(ws);
    const window = (await tdb.pool.query('SELECT * FROM conversation_windows WHERE workspace_id = $1', [ws])).rows;
    expect(window).toHaveLength(1);
    expect(window[0]).toMatchObject({
      provider_conversation_id: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', origin_type: 'utility', billable: true, pricing_model: 'PMP', pricing_category: 'utility',
    });
    expect(window[0].opened_at).toEqual(new Date(1750263800 * 1000));
    expect(window[0].expires_at).toEqual(new Date(1750350000 * 1000));
    const conv = await conversationOf(ws, contact.id);
    expect(conv).toMatchObject({ provider_conversation_id: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', pricing_category: 'utility' });
    expect(conv.provider_window_expires_at).toEqual(new Date(1750350000 * 1000));
  });

  it('conversation.updated: a 131047 failure closes an open service window', async () => {
    const phone = '393331112222';
    await apply(ws, inboundText('wamid.close-1', 'hello', '2025-06-18T10:00:00Z', phone));
    const failed = fixture('status-failed-131047');
    Object.assign(failed.entry[0]!.changes[0]!.value.statuses[0], { id: 'wamid.out-close', recipient_id: phone, timestamp: unix('2025-06-18T12:00:00Z') });
    await apply(ws, failed);
    const contact = await contactOf(ws, `+${phone}`);
    const conv = await conversationOf(ws, contact.id);
    expect(conv.window_expires_at).toEqual(new Date('2025-06-18T12:00:00Z'));
    // A later inbound message reopens it.
    await apply(ws, inboundText('wamid.close-2', 'back again', '2025-06-18T13:00:00Z', phone));
    expect((await conversationOf(ws, contact.id)).window_expires_at).toEqual(new Date('2025-06-19T13:00:00Z'));
  });

  it('replaying every fixture reapplies the effects without creating duplicates', async () => {
    const all = ['inbound-text', 'inbound-image', 'inbound-button-reply', 'status-sent', 'status-delivered', 'status-read', 'status-failed-131047', 'status-failed-131056'];
    const before = await counts();
    for (const name of all) await apply(ws, fixture(name));
    for (const name of all) await apply(ws, fixture(name));
    expect(await counts()).toEqual(before);
  });

  it('STOP unsubscribes, START re-subscribes, and an old STOP replayed later changes nothing', async () => {
    await apply(ws, fixture('inbound-stop'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'unsubscribed' });
    await apply(ws, inboundText('wamid.start-1', '  start ', '2025-06-19T00:00:00Z'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'subscribed' });
    await apply(ws, fixture('inbound-stop'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'subscribed' });
    // Italian keyword, any case and spacing; ordinary sentences never count.
    await apply(ws, inboundText('wamid.annulla', ' Annulla\n', '2025-06-20T00:00:00Z'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'unsubscribed' });
    await apply(ws, inboundText('wamid.sentence', 'please stop by the store', '2025-06-21T00:00:00Z'));
    await apply(ws, inboundText('wamid.start-2', 'START', '2025-06-22T00:00:00Z'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'subscribed' });
  });

  it('a keyword never lifts an operator block', async () => {
    const contact = await contactOf(ws);
    await updateContact(tdb.db, ws, contact.id, { subscriberStatus: 'blocked' }, new Date('2025-06-23T00:00:00Z'));
    await apply(ws, inboundText('wamid.start-3', 'START', '2025-06-24T00:00:00Z'));
    await apply(ws, inboundText('wamid.stop-3', 'STOP', '2025-06-25T00:00:00Z'));
    expect(await contactOf(ws)).toMatchObject({ subscriber_status: 'blocked' });
  });

  it('the same envelopes in another workspace make that workspace its own rows', async () => {
    await apply(other, fixture('inbound-text'));
    await apply(other, fixture('status-read'));
    const a = await contactOf(ws);
    const b = await contactOf(other);
    expect(b.id).not.toBe(a.id);
    expect(b.subscriber_status).toBe('subscribed');
    expect(await listMessageStatuses(tdb.db, other, OUTBOUND_ID)).toHaveLength(1);
    expect(await getMessageByProviderId(tdb.db, other, OUTBOUND_ID)).toBeUndefined();
  });
});
