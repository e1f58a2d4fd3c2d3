import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationUpdatedEvent } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, inboundText, SCOPE, SHEENA, SHEENA_HIDDEN, status, unixIso, windowOpened } from './testing/families';

/** conversation.updated, resolving the contact by phone number or user id. */
describe('conversation.updated effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const update = (over: Partial<ConversationUpdatedEvent>): ConversationUpdatedEvent => ({
    ...SCOPE,
    family: 'conversation.updated',
    contact: SHEENA,
    change: 'service_window_opened',
    conversationId: null,
    origin: null,
    occurredAt: unixIso(1750000000),
    expiresAt: null,
    ...over,
  });

  it('the window opened before its message arrives converges with the message applied later', async () => {
    const [a, b] = [await h.workspace(), await h.workspace()];
    const ev = inboundText();
    await h.apply(a, windowOpened(ev), ev);
    await h.apply(b, ev, windowOpened(ev));
    const pick = (c: Record<string, unknown>) => [c.window_opened_at, c.window_expires_at, c.last_inbound_at];
    expect(pick((await h.conversations(a))[0])).toEqual(pick((await h.conversations(b))[0]));
  });

  it('service_window_opened and conversation_opened alone write nothing: the message or status they came with applies them', async () => {
    const ws = await h.workspace();
    await h.apply(
      ws,
      windowOpened(inboundText()),
      update({ change: 'conversation_opened', conversationId: '72b14d6bd5407799e66f64d1b338e567', origin: 'marketing', expiresAt: unixIso(1750116480) }),
    );
    expect(await h.snapshot(ws)).toMatchObject({ contacts: [], conversations: [], conversation_windows: [] });
  });

  it('for a hidden-number user, by user id (D/business-scoped-user-ids)', async () => {
    const ws = await h.workspace();
    // The window opened by the user's message; the 131047 failure reported against the user id closes it.
    await h.apply(ws, inboundText({ contact: SHEENA_HIDDEN, sentAt: unixIso(1750000000) }));
    await h.apply(ws, update({ contact: SHEENA_HIDDEN, change: 'service_window_closed', occurredAt: unixIso(1750000000 + 3600) }));
    const [contact] = await h.contacts(ws);
    expect(contact).toMatchObject({ phone_number: null, provider_user_id: 'user.93737...' });
    expect(await h.contacts(ws)).toHaveLength(1);
    const [conv] = await h.conversations(ws);
    expect(conv.contact_id).toBe(contact.id);
    expect(conv.window_expires_at).toEqual(new Date((1750000000 + 3600) * 1000));
  });

  it('a 131047 failure closes the window; a later message reopens it', async () => {
    const ws = await h.workspace();
    const first = inboundText({ sentAt: '2025-06-18T10:00:00.000Z' });
    await h.apply(ws, first, windowOpened(first));
    await h.apply(ws, update({ change: 'service_window_closed', occurredAt: '2025-06-18T12:00:00.000Z' }));
    expect((await h.conversations(ws))[0].window_expires_at).toEqual(new Date('2025-06-18T12:00:00Z'));
    const again = inboundText({ providerMessageId: 'wamid.again', sentAt: '2025-06-18T13:00:00.000Z' });
    await h.apply(ws, again, windowOpened(again));
    expect((await h.conversations(ws))[0].window_expires_at).toEqual(new Date('2025-06-19T13:00:00Z'));
  });

  it('the provider window of conversation_opened is recorded by its status (D/webhooks/reference/messages/status conversation object)', async () => {
    const ws = await h.workspace();
    const opened = update({
      change: 'conversation_opened',
      conversationId: '72b14d6bd5407799e66f64d1b338e567',
      origin: 'marketing',
      occurredAt: unixIso(1750030073),
      expiresAt: unixIso(1750116480),
    });
    // status_sent_marketing_with_pricing_conversation.json: the status that carries that conversation object.
    await h.apply(ws, status(), opened, opened);
    const windows = (await tdb.pool.query('SELECT * FROM conversation_windows WHERE workspace_id = $1', [ws])).rows;
    expect(windows).toEqual([expect.objectContaining({ provider_conversation_id: '72b14d6bd5407799e66f64d1b338e567', origin_type: 'marketing' })]);
    expect((await h.conversations(ws))[0]).toMatchObject({ provider_conversation_id: '72b14d6bd5407799e66f64d1b338e567' });
  });
});
