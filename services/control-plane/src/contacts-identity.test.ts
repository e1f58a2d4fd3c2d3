import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactIdentity, InboundMessageEvent, MessageEditedEvent, MessageReactionEvent, Role } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { authenticate, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';
import { applyFamilies, storeAndApply, type Envelope } from './testing/contacts';

/**
 * A user who hides their number, known by business-scoped user id only, through the contacts
 * surfaces: listed with phoneNumber null, searchable, redacted for viewers, exported and erased.
 * Values from D/business-scoped-user-ids (docs/provider-reference/webhooks/bsuid_messages_text_username_hidden_number.json),
 * D = https://developers.facebook.com/documentation/business-messaging/whatsapp.
 */
const SCOPE = { accountId: '102290129340398', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const HIDDEN: ContactIdentity = { waId: null, userId: 'user.93737...', profileName: 'Sheena Nelson', username: '@realsheenanelson', countryCode: 'US' };
const MESSAGE_ID = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=';

const inbound: InboundMessageEvent = {
  ...SCOPE,
  family: 'message.inbound',
  providerMessageId: MESSAGE_ID,
  contact: HIDDEN,
  sentAt: new Date(1749416383 * 1000).toISOString(),
  type: 'text',
  content: { kind: 'text', body: 'Does it come in another color?' },
  text: 'Does it come in another color?',
  context: null,
  referral: null,
  errors: [],
  optKeyword: null,
};
/** D/webhooks/reference/messages/edit (messages_edit_coexistence.json), applied to the message above. */
const edited: MessageEditedEvent = {
  ...SCOPE,
  family: 'message.edited',
  providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
  originalMessageId: MESSAGE_ID,
  contact: HIDDEN,
  editedAt: new Date(1749416383 * 1000 + 60_000).toISOString(),
  type: 'text',
  content: { kind: 'text', body: 'Does it come in blue?' },
  text: 'Does it come in blue?',
};
/** D/webhooks/reference/messages/reaction (messages_reaction.json), reacting to the message above. */
const reacted: MessageReactionEvent = {
  ...SCOPE,
  family: 'message.reaction',
  providerMessageId: 'wamid.reaction-1',
  contact: HIDDEN,
  reactedToMessageId: MESSAGE_ID,
  emoji: '👍',
  occurredAt: new Date(1749419544 * 1000).toISOString(),
};

describe('contacts known by user id only (hidden number)', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  const ops = {} as Record<Role, SeededOperator>;
  let contactId: string;
  const as = async (role: Role) => createCaller({ deps, actor: (await authenticate(deps, ops[role].token))!, requestId: 't' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    ops.owner = await seedOperator(deps, { role: 'owner' });
    for (const role of ['admin', 'developer', 'viewer'] as const) ops[role] = await seedOperator(deps, { workspace: ops.owner.workspaceSlug, role });
    // The stored envelope names the user by user id only (the raw body erasure must find).
    const envelope = JSON.parse(
      `{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"messages","value":{"messaging_product":"whatsapp",
      "metadata":{"display_phone_number":"15550783881","phone_number_id":"106540352242922"},
      "contacts":[{"profile":{"name":"Sheena Nelson","username":"@realsheenanelson","country_code":"US"},"wa_id":"","user_id":"user.93737..."}],
      "messages":[{"from":"","from_user_id":"user.93737...","id":"${MESSAGE_ID}","timestamp":"1749416383","type":"text","text":{"body":"Does it come in another color?"}}]}}]}]}`,
    ) as Envelope;
    await storeAndApply(tdb.db, ops.owner.workspaceId, envelope);
    await applyFamilies(tdb.db, ops.owner.workspaceId, inbound, edited, reacted);
    contactId = (await (await as('owner')).contacts.list({})).contacts[0]!.id;
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  it('listed and fetched with phoneNumber null, the user id, username and country; searchable by username', async () => {
    const c = await as('developer');
    const { contacts } = await c.contacts.list({ search: 'realsheena' });
    expect(contacts).toEqual([
      expect.objectContaining({
        id: contactId,
        phoneNumber: null,
        providerUserId: 'user.93737...',
        username: '@realsheenanelson',
        countryCode: 'US',
        name: 'Sheena Nelson',
      }),
    ]);
    const details = await c.contacts.get({ id: contactId });
    expect(details.recentMessages).toEqual([
      expect.objectContaining({
        body: 'Does it come in blue?',
        content: { kind: 'text', body: 'Does it come in blue?' },
        editedAt: new Date(1749416383 * 1000 + 60_000).toISOString(),
      }),
    ]);
    expect(details.recentMessages[0]!.reactions).toEqual([{ contactId, emoji: '👍', occurredAt: reacted.occurredAt }]);
    // The edit history (issue 9: edits keep history): the words as first received, then the edit.
    expect(details.recentMessages[0]!.versions).toEqual([
      {
        kind: 'original',
        occurredAt: inbound.sentAt,
        content: { kind: 'text', body: 'Does it come in another color?' },
        text: 'Does it come in another color?',
      },
      { kind: 'edit', occurredAt: edited.editedAt, content: { kind: 'text', body: 'Does it come in blue?' }, text: 'Does it come in blue?' },
    ]);
  });

  it('a viewer sees no user id, username, words or emoji', async () => {
    const c = await as('viewer');
    const [listed] = (await c.contacts.list({})).contacts;
    expect(listed).toMatchObject({ phoneNumber: null, providerUserId: '[redacted]', username: '[redacted]', countryCode: 'US' });
    const details = await c.contacts.get({ id: contactId });
    expect(details.recentMessages[0]).toMatchObject({
      content: { kind: 'text', body: '[redacted]' },
      reactions: [expect.objectContaining({ emoji: '[redacted]' })],
    });
    expect(details.recentMessages[0]!.versions).toEqual([
      { kind: 'original', occurredAt: inbound.sentAt, content: { kind: 'text', body: '[redacted]' }, text: '[redacted]' },
      { kind: 'edit', occurredAt: edited.editedAt, content: { kind: 'text', body: '[redacted]' }, text: '[redacted]' },
    ]);
    expect(JSON.stringify(details)).not.toMatch(/user\.93737|realsheenanelson|Sheena|color|blue|👍/);
  });

  it('the GDPR export (REST) carries the identity, every version and the reaction', async () => {
    const res = await jsonRequest(`${cp.url}/api/contacts/${contactId}/gdpr`, { headers: bearer(ops.admin.token) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 3, contact: { phoneNumber: null, providerUserId: 'user.93737...', username: '@realsheenanelson' } });
    expect(res.body.messageVersions.map((v: { kind: string; text: string }) => [v.kind, v.text])).toEqual([
      ['original', 'Does it come in another color?'],
      ['edit', 'Does it come in blue?'],
    ]);
    expect(res.body.reactions).toEqual([expect.objectContaining({ emoji: '👍', reactedToMessageId: MESSAGE_ID })]);
    // Each message carries the reactions to it and its versions, taken from the contact's own lists.
    expect(res.body.messages).toEqual([
      expect.objectContaining({ providerMessageId: MESSAGE_ID, reactions: [{ contactId, emoji: '👍', occurredAt: reacted.occurredAt }] }),
    ]);
    expect(res.body.messages[0].versions.map((v: { kind: string }) => v.kind)).toEqual(['original', 'edit']);
    expect(res.body.webhookEvents).toHaveLength(1);
  });

  it('erasure removes the user id, username, every version, the reaction and the envelope naming the user id', async () => {
    const res = await jsonRequest(`${cp.url}/api/contacts/${contactId}/gdpr`, { method: 'DELETE', headers: bearer(ops.owner.token) });
    expect(res).toMatchObject({ status: 200, body: { ok: true, erased: { messages: 1, webhookEvents: 1 } } });
    const ws = ops.owner.workspaceId;
    for (const needle of ['user.93737', 'realsheenanelson', 'Sheena', 'another color', 'blue', '👍']) {
      const hits = await tdb.pool.query(
        `SELECT (SELECT count(*) FROM contacts c WHERE c.workspace_id = $1 AND row_to_json(c)::text LIKE $2)
              + (SELECT count(*) FROM messages m WHERE m.workspace_id = $1 AND row_to_json(m)::text LIKE $2)
              + (SELECT count(*) FROM message_revisions r WHERE r.workspace_id = $1 AND row_to_json(r)::text LIKE $2)
              + (SELECT count(*) FROM message_reactions x WHERE x.workspace_id = $1 AND row_to_json(x)::text LIKE $2)
              + (SELECT count(*) FROM webhook_events e WHERE e.workspace_id = $1 AND encode(e.raw_body, 'escape') LIKE $2) AS n`,
        [ws, `%${needle}%`],
      );
      expect(Number(hits.rows[0].n), needle).toBe(0);
    }
    // The same user writing again is a new contact.
    await applyFamilies(tdb.db, ws, { ...inbound, providerMessageId: 'wamid.back' });
    expect((await (await as('owner')).contacts.list({})).contacts.map((c) => c.providerUserId)).toEqual([null, 'user.93737...']);
  });
});
