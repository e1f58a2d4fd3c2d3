import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { echo, effectsHarness, inboundText, SHEENA_PHONE, status, unixIso, windowOpened } from './testing/families';

/**
 * message.echo: a message the business sent from the provider's business app
 * (D/webhooks/reference/smb_message_echoes, smb_message_echoes_text.json).
 */
describe('message.echo effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('is stored as our outbound message to the customer and never opens the service window', async () => {
    const ws = await h.workspace();
    await h.apply(ws, echo());
    const [contact] = await h.contacts(ws);
    expect(contact).toMatchObject({ phone_number: SHEENA_PHONE, last_inbound_at: null });
    const msg = await h.message(ws, echo().providerMessageId);
    expect(msg).toMatchObject({
      direction: 'outbound',
      type: 'text',
      body: expect.stringMatching(/^Here's the info/),
      contact_id: contact.id,
      content: { kind: 'text' },
    });
    const [conv] = await h.conversations(ws);
    expect(conv).toMatchObject({ window_opened_at: null, window_expires_at: null, last_inbound_at: null });
    expect(conv.last_message_at).toEqual(new Date(1739321024 * 1000));
  });

  it('leaves an open window as it is, joins its statuses, and replays change nothing', async () => {
    const ws = await h.workspace();
    const inbound = inboundText({ sentAt: unixIso(1739321024 - 600) });
    await h.apply(ws, inbound, windowOpened(inbound));
    const [before] = await h.conversations(ws);
    await h.apply(
      ws,
      status({ providerMessageId: echo().providerMessageId, status: 'delivered', occurredAt: unixIso(1739321030), conversation: null, pricing: null }),
    );
    await h.apply(ws, echo());
    const [after] = await h.conversations(ws);
    expect([after.window_opened_at, after.window_expires_at]).toEqual([before.window_opened_at, before.window_expires_at]);
    expect(after.last_message_at).toEqual(new Date(1739321024 * 1000));
    expect(await h.message(ws, echo().providerMessageId)).toMatchObject({ status: 'delivered' });
    const snap = await h.snapshot(ws);
    await h.apply(ws, echo(), echo());
    expect(await h.snapshot(ws)).toEqual(snap);
    expect(snap.contacts).toHaveLength(1);
  });
});
