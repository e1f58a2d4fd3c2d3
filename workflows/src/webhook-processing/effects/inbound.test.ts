import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, inboundImage, inboundText, inboundUnsubscribeButton, SHEENA, SHEENA_PHONE, unixIso, windowOpened } from './testing/families';

/**
 * message.inbound against a real database. Families carry the values of the provider's
 * published examples (see testing/families.ts for each source page).
 */
describe('message.inbound effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('upserts the contact, opens the window and keeps the whole typed content (D/webhooks/reference/messages/text)', async () => {
    const ws = await h.workspace();
    const ev = inboundText();
    await h.apply(ws, ev, windowOpened(ev));
    const [contact] = await h.contacts(ws);
    expect(contact).toMatchObject({
      phone_number: SHEENA_PHONE,
      provider_user_id: null,
      name: 'Sheena Nelson',
      profile_name: 'Sheena Nelson',
      subscriber_status: 'subscribed',
    });
    expect(contact.last_inbound_at).toEqual(new Date(1749416383 * 1000));
    const [conv] = await h.conversations(ws);
    expect(conv.window_opened_at).toEqual(new Date(1749416383 * 1000));
    expect(conv.window_expires_at).toEqual(new Date((1749416383 + 86400) * 1000));
    const msg = await h.message(ws, ev.providerMessageId);
    expect(msg).toMatchObject({
      direction: 'inbound',
      type: 'text',
      body: 'Does it come in another color?',
      caption: null,
      conversation_id: conv.id,
      contact_id: contact.id,
      content: { kind: 'text', body: 'Does it come in another color?' },
      context: null,
      referral: null,
      errors: null,
      edited_at: null,
      revoked_at: null,
    });
  });

  it('media: id, mime type, sha256, url and caption kept; the caption is what search sees (D/webhooks/reference/messages/image)', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundImage());
    const msg = await h.message(ws, inboundImage().providerMessageId);
    expect(msg).toMatchObject({ type: 'image', body: null, caption: 'Taj Mahal', media_id: '1003383421387256', media_mime_type: 'image/jpeg' });
    expect(msg.content).toMatchObject({
      kind: 'media',
      mediaKind: 'image',
      sha256: 'SfInY0gGKTsJlUWbwxC1k+FAD0FZHvzwfpvO0zX0GUI=',
      url: expect.stringContaining('lookaside'),
    });
    const hits = await tdb.pool.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND search_vector @@ to_tsquery('simple', 'taj')`, [ws]);
    expect(hits.rows[0].n).toBe(1);
  });

  it('reply context, click-to-chat referral and message errors are stored whole', async () => {
    const ws = await h.workspace();
    // D/webhooks/reference/messages/text, "Click-to-WhatsApp ad" example (messages_text_click_to_whatsapp_ad_referral.json).
    const referral = {
      sourceUrl: 'https://fb.me/3cr4Wqqkv',
      sourceType: 'ad',
      sourceId: '120226305854810726',
      headline: 'Chat with us',
      body: 'Summer Succulents are here!',
      mediaType: 'image',
      imageUrl: 'https://scontent.xx.fbcdn.net/v/t45.1...',
      videoUrl: null,
      thumbnailUrl: null,
      ctwaClid: 'Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4_0NiNhEgpGo0AHemvuSoifXaytfTzcchptiErTKCqTrJ5nW1h7IHYeYymGb5K5J5iTROpBhWAGaIAeUzHL50',
      welcomeMessageText: 'Hi there! Let us know how we can help!',
    };
    await h.apply(
      ws,
      inboundText({
        providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUQ0N0VFMDA2MTQ0RkJFNkNDNAA=',
        sentAt: unixIso(1750275992),
        body: 'Can I get more info about this?',
        referral,
      }),
    );
    // D/webhooks/reference/messages/unsupported (messages_unsupported_edit.json).
    const unsupported = inboundText({
      providerMessageId: 'wamid.unsupported-edit',
      sentAt: unixIso(1750090702),
      type: 'unsupported',
      content: { kind: 'unsupported', unsupportedType: 'edit' },
      text: null,
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', details: 'Message type is currently not supported.', href: null },
      ],
    });
    await h.apply(ws, unsupported);
    // The quick-reply tap replies to our template (D/webhooks/reference/messages/button).
    await h.apply(ws, inboundUnsubscribeButton());
    const [withReferral, withError] = [
      await h.message(ws, 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUQ0N0VFMDA2MTQ0RkJFNkNDNAA='),
      await h.message(ws, 'wamid.unsupported-edit'),
    ];
    expect(withReferral.referral).toEqual(referral);
    expect(withError).toMatchObject({ type: 'unsupported', body: null, content: { kind: 'unsupported', unsupportedType: 'edit' } });
    expect(withError.errors).toEqual([expect.objectContaining({ code: 131051, details: 'Message type is currently not supported.' })]);
    const button = await h.message(ws, inboundUnsubscribeButton().providerMessageId);
    expect(button).toMatchObject({
      type: 'button',
      body: 'Unsubscribe',
      context_message_id: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
      payload: { reply: { kind: 'button', id: 'Unsubscribe' } },
      context: expect.objectContaining({ replyToFrom: '15550783881', forwarded: false }),
    });
  });

  it('replaying the same families twice leaves every row as it was', async () => {
    const ws = await h.workspace();
    const all = [inboundText(), inboundImage({ providerMessageId: 'wamid.image-2' }), inboundUnsubscribeButton()];
    for (const ev of all) await h.apply(ws, ev, windowOpened(ev));
    const before = await h.snapshot(ws);
    for (const ev of all) await h.apply(ws, ev, windowOpened(ev));
    for (const ev of all) await h.apply(ws, ev, windowOpened(ev));
    expect(await h.snapshot(ws)).toEqual(before);
    expect(before.messages).toHaveLength(3);
  });

  it('a late older message never moves the window back past a gap, nor rolls the profile back', async () => {
    const ws = await h.workspace();
    const now = inboundText();
    await h.apply(ws, now, windowOpened(now));
    const [before] = await h.conversations(ws);
    const old = inboundText({ providerMessageId: 'wamid.late-old', sentAt: '2025-01-01T00:00:00.000Z', contact: { ...SHEENA, profileName: 'Old Name' } });
    await h.apply(ws, old, windowOpened(old));
    const [after] = await h.conversations(ws);
    expect([after.window_opened_at, after.window_expires_at, after.last_message_at]).toEqual([
      before.window_opened_at,
      before.window_expires_at,
      before.last_message_at,
    ]);
    expect((await h.contacts(ws))[0]).toMatchObject({ profile_name: 'Sheena Nelson' });
  });

  it('a STOP tapped on a quick-reply button unsubscribes; a later typed START re-subscribes; the old tap replayed changes nothing', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundUnsubscribeButton());
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'unsubscribed', subscriber_status_source: 'keyword' });
    expect((await h.contacts(ws))[0].subscriber_status_at).toEqual(new Date(1750091045 * 1000));
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.start-1', body: 'START', optKeyword: 'start', sentAt: unixIso(1750091045 + 60) }));
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'subscribed' });
    await h.apply(ws, inboundUnsubscribeButton());
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'subscribed' });
    // An interactive reply the normalizer flagged (D/webhooks/reference/messages/interactive, reply id changed to a STOP word).
    await h.apply(
      ws,
      inboundText({
        providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTZBQzg0MzQ4QjRCM0NGNkVGOAA=',
        sentAt: unixIso(1750091045 + 120),
        type: 'interactive',
        content: { kind: 'interactive', replyType: 'button_reply', id: 'STOP', title: 'Stop messages', description: null, flow: null },
        text: 'Stop messages',
        optKeyword: 'stop',
      }),
    );
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'unsubscribed' });
    // Words the normalizer did not flag never count.
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.sentence', body: 'please stop by the store', sentAt: unixIso(1750091045 + 180) }));
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'unsubscribed' });
  });

  it('a keyword never lifts an operator block', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText());
    const [contact] = await h.contacts(ws);
    await updateContact(tdb.db, ws, contact.id, { subscriberStatus: 'blocked' }, new Date('2025-06-23T00:00:00Z'));
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'blocked', subscriber_status_source: 'operator' });
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.start-3', body: 'START', optKeyword: 'start', sentAt: '2025-06-24T00:00:00Z' }));
    await h.apply(ws, inboundText({ providerMessageId: 'wamid.stop-3', body: 'STOP', optKeyword: 'stop', sentAt: '2025-06-25T00:00:00Z' }));
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'blocked', subscriber_status_source: 'operator' });
  });

  it('an edit delivered as unsupported (D/webhooks/reference/messages/unsupported, messages_unsupported_edit.json) is kept but opens no window', async () => {
    const ws = await h.workspace();
    const opened = inboundText({ sentAt: unixIso(1750000000) });
    await h.apply(ws, opened);
    const undeliveredEdit = inboundText({
      providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
      sentAt: unixIso(1750090702),
      type: 'unsupported',
      content: { kind: 'unsupported', unsupportedType: 'edit' },
      text: null,
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', details: 'Message type is currently not supported.', href: null },
      ],
    });
    await h.apply(ws, undeliveredEdit);
    const [conv] = await h.conversations(ws);
    // The window is still the first message's; the thread's last message moved.
    expect(conv).toMatchObject({
      window_expires_at: new Date((1750000000 + 86400) * 1000),
      last_inbound_at: new Date(1750000000 * 1000),
      last_message_at: new Date(1750090702 * 1000),
    });
    expect(await h.message(ws, undeliveredEdit.providerMessageId)).toMatchObject({ type: 'unsupported', conversation_id: conv.id });
  });

  it('the same families in two workspaces make two sets of rows', async () => {
    const [a, b] = [await h.workspace(), await h.workspace()];
    await h.apply(a, inboundText());
    await h.apply(b, inboundText());
    const [ca, cb] = [(await h.contacts(a))[0], (await h.contacts(b))[0]];
    expect(ca.id).not.toBe(cb.id);
    expect((await h.message(a, inboundText().providerMessageId)).contact_id).toBe(ca.id);
    expect((await h.message(b, inboundText().providerMessageId)).contact_id).toBe(cb.id);
  });

  it('an identity with neither a phone number nor a user id fails permanently', async () => {
    const ws = await h.workspace();
    await expect(h.apply(ws, inboundText({ contact: { ...SHEENA, waId: null } }))).rejects.toMatchObject({
      type: 'MissingContactIdentity',
      nonRetryable: true,
    });
    await expect(h.apply(ws, inboundText({ contact: { ...SHEENA, waId: 'not-a-number' } }))).rejects.toMatchObject({
      type: 'InvalidPhoneNumber',
      nonRetryable: true,
    });
    expect(await h.contacts(ws)).toEqual([]);
  });
});
