import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditLogs } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, inboundText, PABLO, PABLO_USER_ID, reaction, SHEENA_HIDDEN, status, unixIso, windowOpened } from './testing/families';

/**
 * Contacts known by phone number, by business-scoped user id, or both
 * (D/business-scoped-user-ids, the bsuid_*.json examples in docs/provider-reference/webhooks).
 */
describe('contact identity: phone number, user id, or both', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('a user who hides their number is kept, keyed by the user id, with their username and country', async () => {
    const ws = await h.workspace();
    // bsuid_messages_text_username_hidden_number.json: `from: ""`, `from_user_id`.
    const ev = inboundText({ contact: SHEENA_HIDDEN });
    await h.apply(ws, ev, windowOpened(ev));
    const contacts = await h.contacts(ws);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({
      phone_number: null,
      provider_user_id: 'user.93737...',
      username: '@realsheenanelson',
      country_code: 'US',
      name: 'Sheena Nelson',
    });
    expect((await h.message(ws, ev.providerMessageId)).contact_id).toBe(contacts[0].id);
    expect(await h.conversations(ws)).toHaveLength(1);
    // A second message from the same user id finds the same contact.
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.hidden-2', contact: SHEENA_HIDDEN, sentAt: unixIso(1749416383 + 60) }));
    expect(await h.contacts(ws)).toHaveLength(1);
  });

  it('a status sent to a user id finds that contact; a later one revealing the phone attaches it (no duplicate)', async () => {
    const ws = await h.workspace();
    // bsuid_status_delivered_sent_to_bsuid_empty_wa_id.json: recipient_id "", recipient_user_id.
    await h.apply(ws, status({ status: 'delivered', recipient: PABLO, conversation: null }));
    expect(await h.contacts(ws)).toEqual([expect.objectContaining({ phone_number: null, provider_user_id: PABLO_USER_ID, username: '@pablomorales' })]);
    // bsuid_status_delivered_username_phone_known.json: the same user id with wa_id 16505551234.
    await h.apply(ws, status({ status: 'read', occurredAt: unixIso(1750030080), recipient: { ...PABLO, waId: '16505551234' }, conversation: null }));
    const contacts = await h.contacts(ws);
    expect(contacts).toEqual([expect.objectContaining({ phone_number: '+16505551234', provider_user_id: PABLO_USER_ID })]);
    const statuses = await h.statuses(ws);
    expect(statuses.map((s) => [s.status, s.contact_id])).toEqual([
      ['delivered', contacts[0].id],
      ['read', contacts[0].id],
    ]);
  });

  it('a phone-only contact and a user-id-only contact revealed to be one person merge, keeping both histories', async () => {
    const ws = await h.workspace();
    const byPhone = inboundText({ providerMessageId: 'wamid.by-phone', contact: { ...PABLO, waId: '16505551234', userId: null }, sentAt: unixIso(1750000000) });
    const byUser = inboundText({ providerMessageId: 'wamid.by-user', contact: PABLO, sentAt: unixIso(1750000100) });
    await h.apply(ws, byPhone, windowOpened(byPhone), byUser, windowOpened(byUser));
    await h.apply(ws, reaction({ contact: PABLO, reactedToMessageId: 'wamid.ours', occurredAt: unixIso(1750000200) }));
    expect(await h.contacts(ws)).toHaveLength(2);
    // bsuid_status_delivered_username_phone_known.json: both identifiers at once.
    await h.apply(ws, status({ status: 'delivered', recipient: { ...PABLO, waId: '16505551234' }, conversation: null }));
    const contacts = await h.contacts(ws);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ phone_number: '+16505551234', provider_user_id: PABLO_USER_ID, username: '@pablomorales' });
    expect(contacts[0].last_inbound_at).toEqual(new Date(1750000100 * 1000));
    const conversations = await h.conversations(ws);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ contact_id: contacts[0].id });
    expect(conversations[0].window_opened_at).toEqual(new Date(1750000000 * 1000));
    // The reaction (an emoji added, at 1750000200) extends the window too (core's opensServiceWindow).
    expect(conversations[0].window_expires_at).toEqual(new Date((1750000200 + 86400) * 1000));
    const messages = await h.messages(ws);
    expect(messages.map((m) => [m.provider_message_id, m.contact_id, m.conversation_id])).toEqual([
      ['wamid.by-phone', contacts[0].id, conversations[0].id],
      ['wamid.by-user', contacts[0].id, conversations[0].id],
    ]);
    expect((await h.reactions(ws)).map((r) => r.contact_id)).toEqual([contacts[0].id]);
    // Replays after the merge go to the merged contact.
    await h.apply(ws, byUser, byPhone);
    expect(await h.contacts(ws)).toHaveLength(1);
  });

  it('a merge leaves a trace: the absorbed contact id is in the audit log, with the id it became', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.by-phone', contact: { ...PABLO, waId: '16505551234', userId: null } }));
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.by-user', contact: PABLO, sentAt: unixIso(1749416383 + 60) }));
    const [first, second] = await h.contacts(ws);
    await h.apply(ws, status({ status: 'delivered', recipient: { ...PABLO, waId: '16505551234' }, conversation: null }));
    const [kept] = await h.contacts(ws);
    const absorbedId = kept.id === first.id ? second.id : first.id;
    expect(await listAuditLogs(tdb.db, ws, { limit: 10, action: 'contact.merged' })).toEqual([
      expect.objectContaining({ actorId: 'system', targetId: kept.id, details: { absorbedId, keptId: kept.id } }),
    ]);
  });

  it('a status for a known contact only finds it: the row is not written (updated_at unchanged)', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText());
    const [before] = await h.contacts(ws);
    await h.apply(ws, status({ status: 'delivered', conversation: null }), status({ status: 'read', occurredAt: unixIso(1750030080), conversation: null }));
    const [after] = await h.contacts(ws);
    expect(after).toEqual(before);
    expect((await h.statuses(ws)).map((s) => s.contact_id)).toEqual([before.id, before.id]);
    // A family that fills a blank still writes it (a username the contact had no value for).
    await h.apply(
      ws,
      status({ status: 'played', occurredAt: unixIso(1750030090), conversation: null, recipient: { ...SHEENA_HIDDEN, waId: '16505551234', userId: null } }),
    );
    const [filled] = await h.contacts(ws);
    expect(filled).toMatchObject({ id: before.id, username: '@realsheenanelson', country_code: 'US' });
    expect(filled.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
  });

  it('a phone number never overwrites a different one already on the contact found by user id', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText({ contact: { ...PABLO, waId: '16505551234' } }));
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.other-phone', contact: { ...PABLO, waId: '393331234567' }, sentAt: unixIso(1749416383 + 5) }));
    const contacts = await h.contacts(ws);
    expect(contacts).toEqual([expect.objectContaining({ phone_number: '+16505551234', provider_user_id: PABLO_USER_ID })]);
    expect((await h.messages(ws)).every((m) => m.contact_id === contacts[0].id)).toBe(true);
  });

  it('the database refuses a contact with neither a phone number nor a user id', async () => {
    const ws = await h.workspace();
    await expect(tdb.pool.query(`INSERT INTO contacts (id, workspace_id) VALUES ('ctr_bad', $1)`, [ws])).rejects.toThrow(/contacts_identity_ck/);
  });
});
