import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, storeTestWebhook, type TestDatabase } from '../testing/index';
import {
  anonymizeContactRow,
  applySubscriberKeyword,
  closeServiceWindow,
  deleteReactionsBefore,
  deleteStatusesBefore,
  findEnvelopesNamingPhone,
  getContact,
  getConversation,
  getMessageByProviderId,
  insertMessage,
  listContactConversations,
  listContactMessages,
  listContactStatuses,
  listContacts,
  loadAssistantContext,
  purgeEnvelopeBodiesBefore,
  purgeMessageContentBefore,
  purgeVersionContentBefore,
  recordMessageStatus,
  removeContactMessageContent,
  searchContactIdsFullText,
  searchContacts,
  searchMessagesFullText,
  touchConversationInbound,
  updateContact,
  upsertWorkspace,
  resolveContact,
  upsertReaction,
  listMessageReactions,
  listContactReactions,
  recordRevision,
  applyMessageRevisions,
  listMessageRevisions,
  getIdentityChange,
  recordIdentityChange,
  findContactBy,
  setContactIdentifiers,
  markIdentityChanged,
  mergeContacts,
  findEnvelopesNamingContact,
  listContactIdentityChanges,
} from './index';

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
    contactA = (await resolveContact(tdb.db, a, { phoneNumber: '+16505551234', userId: null, profileName: 'Sheena' }, { at, inbound: true })).id;
    conversationA = (await touchConversationInbound(tdb.db, a, contactA, at)).id;
    await insertMessage(tdb.db, a, {
      conversationId: conversationA,
      contactId: contactA,
      direction: 'inbound',
      providerMessageId: 'wamid.a',
      type: 'text',
      body: 'refund please',
      sentAt: at,
    });
    await recordMessageStatus(tdb.db, a, { providerMessageId: 'wamid.o', status: 'read', occurredAt: at, contactId: contactA });
    await resolveContact(tdb.db, a, { phoneNumber: '+16505551234', userId: 'user.a' }, { at });
    await upsertReaction(tdb.db, a, { reactedToMessageId: 'wamid.o', contactId: contactA, providerMessageId: 'wamid.r', emoji: '👍', occurredAt: at });
    await recordRevision(tdb.db, a, {
      kind: 'edit',
      providerMessageId: 'wamid.e',
      messageProviderId: 'wamid.a',
      contactId: contactA,
      occurredAt: later,
      content: { kind: 'text', body: 'refund now' },
      text: 'refund now',
    });
    await applyMessageRevisions(tdb.db, a, 'wamid.a');
    await recordIdentityChange(tdb.db, a, { contactId: contactA, providerMessageId: 'wamid.s', change: 'identity_changed', occurredAt: at });
    await storeTestWebhook(tdb.db, a, { id: 'evt_a', body: '{"from":"16505551234"}', normalizationStatus: 'processed', receivedAt: at });
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
    expect(await listMessageReactions(tdb.db, b, ['wamid.o'])).toEqual([]);
    expect(await listContactReactions(tdb.db, b, contactA)).toEqual([]);
    expect(await listMessageRevisions(tdb.db, b, ['wamid.a'])).toEqual([]);
    expect(await getIdentityChange(tdb.db, b, 'wamid.s')).toBeUndefined();
    expect(await listContactIdentityChanges(tdb.db, b, contactA)).toEqual([]);
    expect(await findContactBy(tdb.db, b, { userId: 'user.a' })).toBeUndefined();
    expect(await findContactBy(tdb.db, b, { phoneNumber: '+16505551234' })).toBeUndefined();
    expect(await findEnvelopesNamingContact(tdb.db, b, { id: contactA, phoneNumber: '+16505551234', providerUserId: 'user.a' })).toEqual([]);
    expect(await applyMessageRevisions(tdb.db, b, 'wamid.a')).toBeUndefined();
    // ...while workspace A finds them.
    expect(await searchContactIdsFullText(tdb.db, a, 'sheena:*', 5)).toEqual([contactA]);
    // A user who hides their number (no phone) is still found by name and username.
    const hidden = await resolveContact(tdb.db, a, { phoneNumber: null, userId: 'user.p', profileName: 'Pablo M.', username: '@pablomorales' }, { at });
    expect(await searchContactIdsFullText(tdb.db, a, 'pablo:*', 5)).toEqual([hidden.id]);
    expect(await searchContactIdsFullText(tdb.db, a, 'pablomorales:*', 5)).toEqual([hidden.id]);
    expect(await searchContactIdsFullText(tdb.db, b, 'pablo:*', 5)).toEqual([]);
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
    expect(await purgeVersionContentBefore(tdb.db, b, later, 100)).toBe(0);
    expect(await deleteReactionsBefore(tdb.db, b, later, 100)).toBe(0);
    await setContactIdentifiers(tdb.db, b, contactA, { phoneNumber: '+15550000000', userId: 'user.b' });
    await markIdentityChanged(tdb.db, b, contactA, later);
    await expect(mergeContacts(tdb.db, b, contactA, 'ctr_other')).rejects.toThrow(/both contacts must exist/);
    // Resolving the same identity in B makes B's own contact, never A's.
    const inB = await resolveContact(tdb.db, b, { phoneNumber: '+16505551234', userId: 'user.a' }, { at });
    expect(inB.id).not.toBe(contactA);

    expect(await getContact(tdb.db, a, contactA)).toMatchObject({
      name: 'Sheena',
      phoneNumber: '+16505551234',
      providerUserId: 'user.a',
      subscriberStatus: 'subscribed',
      identityChangedAt: null,
    });
    expect(await getMessageByProviderId(tdb.db, a, 'wamid.a')).toMatchObject({ body: 'refund now' });
    expect(await listMessageReactions(tdb.db, a, ['wamid.o'])).toHaveLength(1);
    expect((await listMessageRevisions(tdb.db, a, ['wamid.a'])).map((r) => r.text)).toEqual(['refund please', 'refund now']);
    expect(await getIdentityChange(tdb.db, a, 'wamid.s')).toBeDefined();
    expect((await getConversation(tdb.db, a, conversationA))!.windowExpiresAt).toEqual(new Date(at.getTime() + 86_400_000));
    expect(await listContactStatuses(tdb.db, a, contactA)).toHaveLength(1);
    expect(await findEnvelopesNamingPhone(tdb.db, a, '+16505551234')).toHaveLength(1);
  });
});
