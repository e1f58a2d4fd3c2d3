import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import {
  anonymizeContactRow, applySubscriberKeyword, closeServiceWindow, deleteStatusesBefore, findEnvelopesNamingPhone, getContact,
  getConversation, getMessageByProviderId, insertMessage, listContactConversations, listContactMessages, listContactStatuses,
  listContacts, loadAssistantContext, purgeEnvelopeBodiesBefore, purgeMessageContentBefore, recordMessageStatus,
  removeContactMessageContent, searchContactIdsFullText, searchContacts, searchMessagesFullText, touchConversationInbound,
  updateContact, upsertContactFromInbound, upsertWorkspace,
} from './index';
import { webhookEvents } from '../schema/index';

/** The contact/message query functions, called with workspace B on workspace A's rows. */
describe('cross-workspace isolation of the contact query functions', () => {
  let tdb: TestDatabase;
  let a: string;
  let b: string;
  let contactA: string;
  let conversationA: string;
  const at = new Date('2025-06-18T10:00:00Z');
  const later = new Date('2030-01-01T00:00:00Z');

  beforeAll(async () => {
    tdb = await createTestDatabase();
    a = (await upsertWorkspace(tdb.db, 'ciso-a')).workspace.id;
    b = (await upsertWorkspace(tdb.db, 'ciso-b')).workspace.id;
    contactA = (await upsertContactFromInbound(tdb.db, a, { phoneNumber: '+16505551234', profileName: 'Sheena', at })).id;
    conversationA = (await touchConversationInbound(tdb.db, a, contactA, at)).id;
    await insertMessage(tdb.db, a, { conversationId: conversationA, contactId: contactA, direction: 'inbound', providerMessageId: 'wamid.a', type: 'text', body: 'refund please', sentAt: at });
    await recordMessageStatus(tdb.db, a, { providerMessageId: 'wamid.o', status: 'read', occurredAt: at, contactId: contactA });
    const body = Buffer.from('{"from":"16505551234"}');
    await tdb.db.insert(webhookEvents).values({
      id: 'evt_a', workspaceId: a, source: 'messaging', topic: 'messages', requestId: 'r', signatureValid: true, headers: {}, query: {},
      bodyHash: 'h', rawBody: body, bodySize: body.length, summary: {}, normalizationStatus: 'processed', responseStatus: 200, receivedAt: at,
    });
  });
  afterAll(async () => tdb?.drop());

  it('reads see nothing of another workspace', async () => {
    expect(await getContact(tdb.db, b, contactA)).toBeUndefined();
    expect(await listContacts(tdb.db, b, { limit: 50, offset: 0 })).toEqual([]);
    expect(await searchContacts(tdb.db, b, { search: 'Sheena', limit: 50 })).toEqual([]);
    expect(await getConversation(tdb.db, b, conversationA)).toBeUndefined();
    expect(await listContactConversations(tdb.db, b, contactA)).toEqual([]);
    expect(await listContactMessages(tdb.db, b, contactA)).toEqual([]);
    expect(await getMessageByProviderId(tdb.db, b, 'wamid.a')).toBeUndefined();
    expect(await listContactStatuses(tdb.db, b, contactA)).toEqual([]);
    expect(await findEnvelopesNamingPhone(tdb.db, b, '+16505551234')).toEqual([]);
    expect(await searchContactIdsFullText(tdb.db, b, 'sheena:*', 5)).toEqual([]);
    expect(await searchMessagesFullText(tdb.db, b, 'refund:*', 5)).toEqual([]);
    expect(await loadAssistantContext(tdb.db, b, [contactA], 5)).toEqual([]);
    // ...while workspace A finds them.
    expect(await searchContactIdsFullText(tdb.db, a, 'sheena:*', 5)).toEqual([contactA]);
    expect(await findEnvelopesNamingPhone(tdb.db, a, '+16505551234')).toHaveLength(1);
  });

  it('writes through another workspace touch nothing', async () => {
    expect(await updateContact(tdb.db, b, contactA, { name: 'x', subscriberStatus: 'blocked' }, later)).toBeUndefined();
    expect(await applySubscriberKeyword(tdb.db, b, contactA, 'stop', later)).toBeUndefined();
    expect(await anonymizeContactRow(tdb.db, b, contactA, 'anon_x', later)).toBe(false);
    expect(await removeContactMessageContent(tdb.db, b, contactA, later)).toBe(0);
    await closeServiceWindow(tdb.db, b, conversationA, at);
    expect(await purgeMessageContentBefore(tdb.db, b, later, 100, later)).toBe(0);
    expect(await purgeEnvelopeBodiesBefore(tdb.db, b, later, 100, later)).toBe(0);
    expect(await deleteStatusesBefore(tdb.db, b, later, 100)).toBe(0);

    expect(await getContact(tdb.db, a, contactA)).toMatchObject({ name: 'Sheena', phoneNumber: '+16505551234', subscriberStatus: 'subscribed' });
    expect(await getMessageByProviderId(tdb.db, a, 'wamid.a')).toMatchObject({ body: 'refund please' });
    expect((await getConversation(tdb.db, a, conversationA))!.windowExpiresAt).toEqual(new Date(at.getTime() + 86_400_000));
    expect(await listContactStatuses(tdb.db, a, contactA)).toHaveLength(1);
    expect(await findEnvelopesNamingPhone(tdb.db, a, '+16505551234')).toHaveLength(1);
  });
});
