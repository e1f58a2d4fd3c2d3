import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, inboundText, reaction, unixIso, windowOpened } from './testing/families';

/**
 * message.reaction (D/webhooks/reference/messages/reaction: messages_reaction.json adds 👍,
 * messages_reaction_removed.json omits `emoji`, which removes it). Both examples carry the same
 * id and timestamp; where order matters the tests give each reaction its own time and id.
 */
describe('message.reaction effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const ADD = reaction();
  const REMOVE = reaction({ providerMessageId: 'wamid.reaction-removed', emoji: null, occurredAt: unixIso(1749419544 + 30) });

  it('is not a message: no message row; kept for a message we never stored', async () => {
    const ws = await h.workspace();
    await h.apply(ws, ADD);
    expect(await h.messages(ws)).toEqual([]);
    const [contact] = await h.contacts(ws);
    expect(contact).toMatchObject({ phone_number: '+16505551234', last_inbound_at: null });
    expect(await h.reactions(ws)).toEqual([
      expect.objectContaining({ reacted_to_message_id: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=', contact_id: contact.id, emoji: '👍' }),
    ]);
  });

  it('adding an emoji opens the service window by itself (its service_window_opened family is a no-op); a removal does not', async () => {
    const ws = await h.workspace();
    await h.apply(ws, ADD);
    const [conversation] = await h.conversations(ws);
    expect(conversation).toMatchObject({ window_opened_at: new Date(1749419544 * 1000), window_expires_at: new Date((1749419544 + 86400) * 1000) });
    const other = await h.workspace();
    await h.apply(other, REMOVE);
    expect(await h.conversations(other)).toEqual([]);
  });

  it('a removal keeps the row without emoji; the add replayed afterwards does not bring it back', async () => {
    const ws = await h.workspace();
    await h.apply(ws, ADD, REMOVE);
    expect((await h.reactions(ws)).map((r) => [r.emoji, r.provider_message_id])).toEqual([[null, 'wamid.reaction-removed']]);
    await h.apply(ws, ADD, ADD);
    expect((await h.reactions(ws)).map((r) => r.emoji)).toEqual([null]);
  });

  it('removal delivered before the add: same end state as in order', async () => {
    const ws = await h.workspace();
    await h.apply(ws, REMOVE, ADD);
    expect((await h.reactions(ws)).map((r) => r.emoji)).toEqual([null]);
    // A newer reaction replaces the removal.
    await h.apply(ws, reaction({ providerMessageId: 'wamid.reaction-heart', emoji: '❤️', occurredAt: unixIso(1749419544 + 60) }));
    expect((await h.reactions(ws)).map((r) => r.emoji)).toEqual(['❤️']);
  });

  it('the published pair (same id, same second): the removal wins whatever the order', async () => {
    const [a, b] = [await h.workspace(), await h.workspace()];
    const sameSecondRemoval = reaction({ emoji: null });
    await h.apply(a, ADD, sameSecondRemoval);
    await h.apply(b, sameSecondRemoval, ADD);
    expect((await h.reactions(a)).map((r) => r.emoji)).toEqual([null]);
    expect((await h.reactions(b)).map((r) => r.emoji)).toEqual([null]);
  });

  it('one current reaction per contact and message; replays change nothing', async () => {
    const ws = await h.workspace();
    const mine = inboundText({ providerMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=' });
    await h.apply(ws, mine, windowOpened(mine), ADD);
    await h.apply(
      ws,
      reaction({ contact: { waId: '393331234567', userId: null, profileName: 'Marco', username: null, countryCode: null }, providerMessageId: 'wamid.marco' }),
    );
    const before = await h.snapshot(ws);
    expect(before.message_reactions).toHaveLength(2);
    await h.apply(ws, ADD, ADD);
    expect(await h.snapshot(ws)).toEqual(before);
    // The reacted-to message is untouched (no new message, no window change).
    expect(before.messages).toHaveLength(1);
  });
});
