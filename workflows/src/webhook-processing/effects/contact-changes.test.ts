import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import {
  effectsHarness,
  inboundText,
  numberChanged,
  PABLO,
  reaction,
  SHEENA,
  SHEENA_NEW_PHONE,
  SHEENA_PHONE,
  status,
  unixIso,
  windowOpened,
} from './testing/families';

/**
 * contact.changed. number_changed uses D/webhooks/reference/messages/system
 * (messages_system_user_changed_number.json: 16505551234 → 12195555358 at 1750269342). The
 * provider publishes no example of `user_changed_user_id` or `customer_identity_changed`
 * (only their syntax); those families are built from events.ts alone.
 */
const CHANGE_AT = 1750269342;
const NEW_SHEENA = { ...SHEENA, waId: '12195555358' };

describe('contact.changed effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const before = (id: string, secondsBefore: number) => inboundText({ providerMessageId: id, sentAt: unixIso(CHANGE_AT - secondsBefore) });

  it('number_changed moves the contact with all its history to the new number; a replay does nothing', async () => {
    const ws = await h.workspace();
    const m1 = before('wamid.old-1', 3600);
    await h.apply(ws, m1, windowOpened(m1), status({ occurredAt: unixIso(CHANGE_AT - 3000), conversation: null }));
    const [contact] = await h.contacts(ws);
    await h.apply(ws, numberChanged());
    const after = await h.contacts(ws);
    expect(after).toEqual([expect.objectContaining({ id: contact.id, phone_number: SHEENA_NEW_PHONE, name: 'Sheena Nelson' })]);
    expect((await h.messages(ws)).map((m) => m.contact_id)).toEqual([contact.id]);
    const changes = (await tdb.pool.query('SELECT * FROM contact_identity_changes WHERE workspace_id = $1', [ws])).rows;
    expect(changes).toEqual([
      expect.objectContaining({ contact_id: contact.id, change: 'number_changed', previous_phone_number: SHEENA_PHONE, new_phone_number: SHEENA_NEW_PHONE }),
    ]);
    const snap = await h.snapshot(ws);
    await h.apply(ws, numberChanged(), numberChanged());
    expect(await h.snapshot(ws)).toEqual(snap);
  });

  it('a message from the new number that arrived first is merged in: one contact, every message, status and reaction kept', async () => {
    const ws = await h.workspace();
    const old = before('wamid.old-1', 7200);
    const fromNew = inboundText({ providerMessageId: 'wamid.new-1', contact: NEW_SHEENA, sentAt: unixIso(CHANGE_AT + 60) });
    await h.apply(ws, old, windowOpened(old), reaction({ reactedToMessageId: 'wamid.ours-1', occurredAt: unixIso(CHANGE_AT - 7000) }));
    await h.apply(
      ws,
      fromNew,
      windowOpened(fromNew),
      reaction({ contact: NEW_SHEENA, providerMessageId: 'wamid.r-new', reactedToMessageId: 'wamid.ours-1', emoji: '🎉', occurredAt: unixIso(CHANGE_AT + 90) }),
    );
    await h.apply(ws, status({ recipient: { ...NEW_SHEENA, profileName: null }, providerMessageId: 'wamid.ours-2', occurredAt: unixIso(CHANGE_AT + 100) }));
    const [oldContact, newContact] = await h.contacts(ws);
    await updateContact(tdb.db, ws, newContact.id, { email: 'sheena@example.test' }, new Date(CHANGE_AT * 1000));
    await h.apply(ws, numberChanged());
    const contacts = await h.contacts(ws);
    expect(contacts).toEqual([expect.objectContaining({ id: oldContact.id, phone_number: SHEENA_NEW_PHONE, email: 'sheena@example.test' })]);
    expect(contacts[0].last_inbound_at).toEqual(new Date((CHANGE_AT + 60) * 1000));
    const conversations = await h.conversations(ws);
    expect(conversations).toHaveLength(1);
    // The newest window-opening event is the 🎉 reaction (an emoji added opens the window, core's opensServiceWindow).
    expect(conversations[0].window_expires_at).toEqual(new Date((CHANGE_AT + 90 + 86400) * 1000));
    expect((await h.messages(ws)).map((m) => [m.provider_message_id, m.contact_id, m.conversation_id])).toEqual([
      ['wamid.old-1', oldContact.id, conversations[0].id],
      ['wamid.new-1', oldContact.id, conversations[0].id],
    ]);
    expect((await h.statuses(ws)).map((s) => s.contact_id)).toEqual([oldContact.id]);
    // Both reacted to the same message: the newer reaction stays, on the merged contact.
    expect((await h.reactions(ws)).map((r) => [r.contact_id, r.emoji])).toEqual([[oldContact.id, '🎉']]);
    expect((await tdb.pool.query('SELECT count(*)::int AS n FROM conversation_windows WHERE workspace_id = $1', [ws])).rows[0].n).toBe(1);
  });

  it('a message from the old number sent before the change but delivered after it finds the moved contact', async () => {
    const ws = await h.workspace();
    await h.apply(ws, before('wamid.old-1', 3600), numberChanged());
    const late = before('wamid.old-late', 60);
    await h.apply(ws, late, windowOpened(late), status({ providerMessageId: 'wamid.ours-late', occurredAt: unixIso(CHANGE_AT - 30), conversation: null }));
    const contacts = await h.contacts(ws);
    expect(contacts).toEqual([expect.objectContaining({ phone_number: SHEENA_NEW_PHONE })]);
    expect((await h.messages(ws)).every((m) => m.contact_id === contacts[0].id)).toBe(true);
    expect((await h.statuses(ws)).map((s) => s.contact_id)).toEqual([contacts[0].id]);
    expect(await h.conversations(ws)).toHaveLength(1);
  });

  it('the old number writing after the change is someone else (numbers are recycled); a replayed change leaves them alone', async () => {
    const ws = await h.workspace();
    await h.apply(ws, before('wamid.old-1', 3600), numberChanged());
    await h.apply(
      ws,
      inboundText({ providerMessageId: 'wamid.recycled', contact: { ...SHEENA, profileName: 'Someone Else' }, sentAt: unixIso(CHANGE_AT + 86400 * 30) }),
    );
    await h.apply(ws, numberChanged());
    const contacts = await h.contacts(ws);
    expect(contacts.map((c) => [c.phone_number, c.profile_name])).toEqual([
      [SHEENA_NEW_PHONE, 'Sheena Nelson'],
      [SHEENA_PHONE, 'Someone Else'],
    ]);
  });

  it('a change for a number we never saw finds or creates the contact under the new number', async () => {
    const ws = await h.workspace();
    await h.apply(ws, numberChanged());
    expect(await h.contacts(ws)).toEqual([expect.objectContaining({ phone_number: SHEENA_NEW_PHONE })]);
    // A late message from the old number joins it.
    await h.apply(ws, before('wamid.old-late', 10));
    expect(await h.contacts(ws)).toHaveLength(1);
  });

  it('user_id_changed moves the user id (merging a contact already holding the new one); identity_changed records when', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText({ contact: PABLO }));
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.new-id', contact: { ...PABLO, userId: 'user.new-id' }, sentAt: unixIso(1749416383 + 10) }));
    expect(await h.contacts(ws)).toHaveLength(2);
    const [first] = await h.contacts(ws);
    const base = { ...numberChanged(), contact: PABLO, newWaId: null, body: null };
    await h.apply(ws, {
      ...base,
      providerMessageId: 'wamid.uid-change',
      change: 'user_id_changed',
      newUserId: 'user.new-id',
      occurredAt: unixIso(1749416383 + 20),
    });
    expect(await h.contacts(ws)).toEqual([expect.objectContaining({ id: first.id, provider_user_id: 'user.new-id', phone_number: null })]);
    expect((await h.messages(ws)).every((m) => m.contact_id === first.id)).toBe(true);
    const identity = {
      ...base,
      providerMessageId: 'wamid.identity',
      change: 'identity_changed' as const,
      contact: { ...PABLO, userId: 'user.new-id' },
      newUserId: null,
    };
    await h.apply(ws, { ...identity, occurredAt: unixIso(1749416383 + 40) });
    await h.apply(ws, { ...identity, providerMessageId: 'wamid.identity-old', occurredAt: unixIso(1749416383 + 30) });
    expect((await h.contacts(ws))[0].identity_changed_at).toEqual(new Date((1749416383 + 40) * 1000));
    // The old user id, used by a family from before the change, still finds the contact.
    await h.apply(ws, reaction({ contact: PABLO, occurredAt: unixIso(1749416383 + 15) }));
    expect(await h.contacts(ws)).toHaveLength(1);
  });

  it('a merge never lifts a block and keeps the newer subscriber decision', async () => {
    const ws = await h.workspace();
    await h.apply(ws, before('wamid.old-1', 3600));
    await h.apply(
      ws,
      inboundText({ providerMessageId: 'wamid.new-stop', contact: NEW_SHEENA, body: 'STOP', optKeyword: 'stop', sentAt: unixIso(CHANGE_AT + 10) }),
    );
    await h.apply(ws, numberChanged());
    expect(await h.contacts(ws)).toEqual([expect.objectContaining({ subscriber_status: 'unsubscribed', subscriber_status_source: 'keyword' })]);

    const ws2 = await h.workspace();
    await h.apply(ws2, before('wamid.old-1', 3600));
    const [blocked] = await h.contacts(ws2);
    await updateContact(tdb.db, ws2, blocked.id, { subscriberStatus: 'blocked' }, new Date((CHANGE_AT - 100) * 1000));
    await h.apply(
      ws2,
      inboundText({ providerMessageId: 'wamid.new-start', contact: NEW_SHEENA, body: 'START', optKeyword: 'start', sentAt: unixIso(CHANGE_AT + 10) }),
    );
    await h.apply(ws2, numberChanged());
    expect(await h.contacts(ws2)).toEqual([expect.objectContaining({ subscriber_status: 'blocked', phone_number: SHEENA_NEW_PHONE })]);
  });
});
