import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMessageRevisions } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { edit, effectsHarness, inboundImage, revoke, unixIso, windowOpened } from './testing/families';

/**
 * message.edited (D/webhooks/reference/messages/edit, messages_edit_coexistence.json) and
 * message.revoked (D/webhooks/reference/messages/revoke, messages_revoke_coexistence.json).
 * The original is an image with the caption "Taj Mahal" (D/webhooks/reference/messages/image)
 * stored under the id the edit and revoke examples name.
 */
const ORIGINAL_ID = 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=';
const original = inboundImage({ providerMessageId: ORIGINAL_ID, sentAt: unixIso(1749854575 - 120) });

describe('message.edited and message.revoked effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('an edit replaces the content and keeps the original version; the window does not move', async () => {
    const ws = await h.workspace();
    await h.apply(ws, original, windowOpened(original));
    const [before] = await h.conversations(ws);
    await h.apply(ws, edit());
    const msg = await h.message(ws, ORIGINAL_ID);
    expect(msg).toMatchObject({
      caption: 'Updated image caption',
      media_id: '1234567890',
      type: 'image',
      content: expect.objectContaining({ caption: 'Updated image caption' }),
    });
    expect(msg.edited_at).toEqual(new Date(1749854575 * 1000));
    const versions = await listMessageRevisions(tdb.db, ws, [ORIGINAL_ID]);
    expect(versions.map((v) => [v.kind, v.text])).toEqual([
      ['original', 'Taj Mahal'],
      ['edit', 'Updated image caption'],
    ]);
    expect(versions[0]!.content).toMatchObject({ caption: 'Taj Mahal', id: '1003383421387256' });
    const [after] = await h.conversations(ws);
    expect([after.window_expires_at, after.last_message_at]).toEqual([before.window_expires_at, before.last_message_at]);
    expect(await h.messages(ws)).toHaveLength(1);
  });

  it('an edit for a message we do not have yet waits, then applies when the message arrives', async () => {
    const ws = await h.workspace();
    await h.apply(ws, edit());
    expect(await h.messages(ws)).toEqual([]);
    expect((await h.revisions(ws)).map((r) => [r.kind, r.applied_at])).toEqual([['edit', null]]);
    await h.apply(ws, original);
    const msg = await h.message(ws, ORIGINAL_ID);
    expect(msg).toMatchObject({ caption: 'Updated image caption' });
    const versions = await h.revisions(ws);
    expect(versions.map((v) => v.kind)).toEqual(['original', 'edit']);
    expect(versions.every((v) => v.applied_at !== null)).toBe(true);
  });

  it('an older edit arriving after a newer one never overwrites it; replays change nothing', async () => {
    const ws = await h.workspace();
    const newer = edit({
      providerMessageId: 'wamid.edit-2',
      editedAt: unixIso(1749854575 + 300),
      text: 'Second caption',
      content: { ...edit().content, caption: 'Second caption' } as never,
    });
    await h.apply(ws, original, newer, edit());
    expect(await h.message(ws, ORIGINAL_ID)).toMatchObject({ caption: 'Second caption' });
    expect((await h.message(ws, ORIGINAL_ID)).edited_at).toEqual(new Date((1749854575 + 300) * 1000));
    const before = await h.snapshot(ws);
    await h.apply(ws, edit(), newer, original, edit());
    expect(await h.snapshot(ws)).toEqual(before);
    expect(before.message_revisions.map((r) => r.text)).toEqual(expect.arrayContaining(['Taj Mahal', 'Updated image caption', 'Second caption']));
  });

  it('a revoke keeps the row, marks it revoked and removes its content and every version', async () => {
    const ws = await h.workspace();
    await h.apply(ws, original, edit(), revoke({ providerMessageId: 'wamid.revoke-1', revokedAt: unixIso(1749854575 + 600) }));
    const msg = await h.message(ws, ORIGINAL_ID);
    expect(msg).toMatchObject({
      body: null,
      caption: null,
      media_id: null,
      payload: null,
      content: null,
      context: null,
      referral: null,
      type: 'image',
      direction: 'inbound',
    });
    expect(msg.revoked_at).toEqual(new Date((1749854575 + 600) * 1000));
    expect(msg.content_removed_at).toEqual(new Date((1749854575 + 600) * 1000));
    expect((await h.revisions(ws)).map((r) => [r.kind, r.content, r.text])).toEqual([
      ['original', null, null],
      ['edit', null, null],
      ['revoke', null, null],
    ]);
    const hits = await tdb.pool.query(
      `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND search_vector @@ to_tsquery('simple', 'taj | updated')`,
      [ws],
    );
    expect(hits.rows[0].n).toBe(0);
  });

  it('revoke before the original (and an edit replayed after it): the original arrives already revoked', async () => {
    const ws = await h.workspace();
    await h.apply(ws, revoke(), original, edit());
    const msg = await h.message(ws, ORIGINAL_ID);
    expect(msg).toMatchObject({ caption: null, content: null });
    expect(msg.revoked_at).toEqual(new Date(1749854575 * 1000));
    expect((await h.revisions(ws)).every((r) => r.content === null && r.text === null)).toBe(true);
  });
});
