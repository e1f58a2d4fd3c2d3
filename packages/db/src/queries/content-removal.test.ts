import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, storeTestWebhook, type TestDatabase } from '../testing/index';
import {
  anonymizeContactRow,
  applyMessageRevisions,
  deleteReactionsBefore,
  findEnvelopesNamingContact,
  insertMessage,
  purgeMessageContentBefore,
  purgeVersionContentBefore,
  recordIdentityChange,
  recordRevision,
  removeContactMessageContent,
  resolveContact,
  touchConversationInbound,
  upsertReaction,
  upsertWorkspace,
} from './index';

/**
 * GDPR erasure and retention remove every copy of what a message said: the flat columns, the
 * typed content, context and referral, every edit version, and reactions; erasure also drops
 * the identifiers (user id, username, old numbers) of a contact.
 */
describe('content removal covers typed content, versions and reactions', () => {
  let tdb: TestDatabase;
  let ws: string;
  const t0 = new Date('2025-06-01T10:00:00Z');
  const t1 = new Date('2025-08-01T10:00:00Z');

  const seed = async (phone: string, userId: string, prefix: string, at: Date) => {
    const contact = await resolveContact(
      tdb.db,
      ws,
      { phoneNumber: phone, userId, profileName: 'Pablo M.', username: '@pablomorales', countryCode: 'US' },
      { at, inbound: true },
    );
    const conv = await touchConversationInbound(tdb.db, ws, contact.id, at);
    await insertMessage(tdb.db, ws, {
      conversationId: conv.id,
      contactId: contact.id,
      direction: 'inbound',
      providerMessageId: `${prefix}.m`,
      type: 'text',
      body: 'secret words',
      sentAt: at,
      content: { kind: 'text', body: 'secret words' },
      context: { replyToMessageId: null, replyToFrom: null, forwarded: true, frequentlyForwarded: false, referredProduct: null },
      referral: {
        sourceUrl: 'https://fb.me/3cr4Wqqkv',
        sourceType: 'ad',
        sourceId: '1',
        headline: 'h',
        body: 'b',
        mediaType: null,
        imageUrl: null,
        videoUrl: null,
        thumbnailUrl: null,
        ctwaClid: 'c',
        welcomeMessageText: null,
      },
    });
    await recordRevision(tdb.db, ws, {
      kind: 'edit',
      providerMessageId: `${prefix}.e`,
      messageProviderId: `${prefix}.m`,
      contactId: contact.id,
      occurredAt: at,
      content: { kind: 'text', body: 'edited secret' },
      text: 'edited secret',
    });
    await applyMessageRevisions(tdb.db, ws, `${prefix}.m`);
    // An edit and a reaction for a message we never stored.
    await recordRevision(tdb.db, ws, {
      kind: 'edit',
      providerMessageId: `${prefix}.e2`,
      messageProviderId: `${prefix}.unknown`,
      contactId: contact.id,
      occurredAt: at,
      content: { kind: 'text', body: 'orphan' },
      text: 'orphan',
    });
    await upsertReaction(tdb.db, ws, {
      reactedToMessageId: `${prefix}.m`,
      contactId: contact.id,
      providerMessageId: `${prefix}.r`,
      emoji: '👍',
      occurredAt: at,
    });
    await upsertReaction(tdb.db, ws, {
      reactedToMessageId: `${prefix}.unknown`,
      contactId: contact.id,
      providerMessageId: `${prefix}.r2`,
      emoji: '🎉',
      occurredAt: at,
    });
    await recordIdentityChange(tdb.db, ws, {
      contactId: contact.id,
      providerMessageId: `${prefix}.s`,
      change: 'number_changed',
      previousPhoneNumber: '+15550001111',
      newPhoneNumber: phone,
      occurredAt: at,
    });
    return contact;
  };
  const rows = async (sql: string) => (await tdb.pool.query(sql, [ws])).rows;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = (await upsertWorkspace(tdb.db, 'content-removal')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('GDPR erasure: no copy of the words, the user id, username or old number is left', async () => {
    const contact = await seed('+16505551234', 'user.9373', 'gdpr', t0);
    const envelope = (id: string, json: string) => storeTestWebhook(tdb.db, ws, { id, body: json, normalizationStatus: 'processed', receivedAt: t0 });
    await envelope('evt_bsuid', '{"recipient_user_id":"user.9373","recipient_id":""}');
    // Sent before the number change: it names only the old number.
    await envelope('evt_old_number', '{"from":"15550001111","id":"wamid.old"}');
    // A hidden-number contact's envelopes are found by the user id.
    expect((await findEnvelopesNamingContact(tdb.db, ws, { id: 'ctr_none', phoneNumber: null, providerUserId: 'user.9373' })).map((e) => e.id)).toEqual([
      'evt_bsuid',
    ]);
    // The contact's own scan also finds what it sent under the number it had before the change.
    expect((await findEnvelopesNamingContact(tdb.db, ws, contact)).map((e) => e.id).sort()).toEqual(['evt_bsuid', 'evt_old_number']);
    expect(await removeContactMessageContent(tdb.db, ws, contact.id, t1)).toBe(1);
    expect(await anonymizeContactRow(tdb.db, ws, contact.id, 'anon_x', t1)).toBe(true);
    const [msg] = await rows(`SELECT * FROM messages WHERE workspace_id = $1 AND provider_message_id = 'gdpr.m'`);
    expect(msg).toMatchObject({ body: null, content: null, context: null, referral: null, payload: null });
    expect(
      await rows(
        `SELECT kind FROM message_revisions WHERE workspace_id = $1 AND provider_message_id LIKE 'gdpr%' AND (content IS NOT NULL OR text IS NOT NULL)`,
      ),
    ).toEqual([]);
    expect(await rows(`SELECT id FROM message_reactions WHERE workspace_id = $1 AND provider_message_id LIKE 'gdpr%'`)).toEqual([]);
    expect(await rows(`SELECT id FROM contact_identity_changes WHERE workspace_id = $1 AND provider_message_id LIKE 'gdpr%'`)).toEqual([]);
    const [c] = await rows(`SELECT * FROM contacts WHERE workspace_id = $1 AND phone_number = 'anon_x'`);
    expect(c).toMatchObject({ provider_user_id: null, username: null, country_code: null, profile_name: null, name: null });
    // The erased contact's token names no envelope.
    expect(await findEnvelopesNamingContact(tdb.db, ws, { id: contact.id, phoneNumber: 'anon_x', providerUserId: null })).toEqual([]);
  });

  it('retention: typed content, edit versions and reactions older than the cutoff go; newer ones stay', async () => {
    await seed('+393331112222', 'user.old', 'old', t0);
    await seed('+393334445555', 'user.new', 'new', t1);
    const cutoff = new Date('2025-07-01T00:00:00Z');
    expect(await purgeMessageContentBefore(tdb.db, ws, cutoff, 100, t1)).toBe(1);
    // Versions and reactions of messages we never stored go by their own age, counted.
    expect(await purgeVersionContentBefore(tdb.db, ws, cutoff, 100)).toBe(1);
    expect(await deleteReactionsBefore(tdb.db, ws, cutoff, 100)).toBe(1);
    const [oldMsg] = await rows(`SELECT * FROM messages WHERE workspace_id = $1 AND provider_message_id = 'old.m'`);
    expect(oldMsg).toMatchObject({ body: null, content: null, context: null, referral: null });
    const [newMsg] = await rows(`SELECT * FROM messages WHERE workspace_id = $1 AND provider_message_id = 'new.m'`);
    expect(newMsg).toMatchObject({
      body: 'edited secret',
      content: { kind: 'text', body: 'edited secret' },
      context: expect.objectContaining({ forwarded: true }),
    });
    const versions = await rows(
      `SELECT provider_message_id, text FROM message_revisions WHERE workspace_id = $1 AND provider_message_id NOT LIKE 'gdpr%' ORDER BY provider_message_id`,
    );
    expect(versions).toEqual([
      { provider_message_id: 'new.e', text: 'edited secret' },
      { provider_message_id: 'new.e2', text: 'orphan' },
      { provider_message_id: 'new.m', text: 'secret words' },
      { provider_message_id: 'old.e', text: null },
      { provider_message_id: 'old.e2', text: null },
      { provider_message_id: 'old.m', text: null },
    ]);
    expect((await rows(`SELECT provider_message_id FROM message_reactions WHERE workspace_id = $1 ORDER BY 1`)).map((r) => r.provider_message_id)).toEqual([
      'new.r',
      'new.r2',
    ]);
    // A second run finds nothing left to do.
    expect(await purgeMessageContentBefore(tdb.db, ws, cutoff, 100, t1)).toBe(0);
    expect(await purgeVersionContentBefore(tdb.db, ws, cutoff, 100)).toBe(0);
    expect(await deleteReactionsBefore(tdb.db, ws, cutoff, 100)).toBe(0);
  });
});
