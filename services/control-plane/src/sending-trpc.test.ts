import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { resolveContact, touchConversationInbound, upsertSyncedTemplate } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, createBroadcast, createBroadcastInput, sendMessage, sendMessageInput, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';

/** messages.* and broadcasts.* (tRPC; REST is GET /internal/messages and /internal/broadcasts in services/api). */
describe('tRPC messages and broadcasts', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let messageId: string;
  let broadcastId: string;
  const as = async (op: SeededOperator) => createCaller({ deps, actor: (await authenticate(deps, op.token))!, requestId: 't' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    owner = await seedOperator(deps, { role: 'owner', phoneNumberId: '106540352242922' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    const c = await resolveContact(tdb.db, owner.workspaceId, { phoneNumber: '+15558100001', userId: null }, { at: new Date() });
    await touchConversationInbound(tdb.db, owner.workspaceId, c.id, new Date());
    messageId = (await sendMessage(deps, scope, sendMessageInput.parse({ to: '+15558100001', type: 'text', text: { body: 'hi' } }))).message.id;
    await upsertSyncedTemplate(
      tdb.db,
      owner.workspaceId,
      { providerTemplateId: '1', name: 'hello', language: 'en', category: 'UTILITY', status: 'approved', components: [{ type: 'BODY', text: 'Hello' }] },
      new Date(),
    );
    const at = new Date(Date.now() + 3_600_000).toISOString();
    broadcastId = (
      await createBroadcast(deps, scope, createBroadcastInput.parse({ template: { name: 'hello', language: 'en' }, segment: {}, scheduledAt: at }))
    ).broadcast.id;
  }, 60_000);

  afterAll(async () => {
    await deps?.temporal.close();
    await tdb?.drop();
  });

  it('any operator reads messages and broadcasts; viewers see the recipient masked', async () => {
    const o = await as(owner);
    expect((await o.messages.list({})).messages.map((m) => m.id)).toEqual([messageId]);
    expect((await o.messages.get({ id: messageId })).message).toMatchObject({ to: '+15558100001', statusHistory: [{ status: 'queued' }] });
    expect((await (await as(viewer)).messages.get({ id: messageId })).message.to).not.toBe('+15558100001');
    expect((await o.broadcasts.get({ id: broadcastId })).broadcast).toMatchObject({ status: 'scheduled', counts: { total: 0 } });
    expect((await o.broadcasts.list({})).broadcasts.map((b) => b.id)).toEqual([broadcastId]);
  });

  it('pause and cancel need a settings role; the status machine answers CONFLICT', async () => {
    await expect((await as(viewer)).broadcasts.pause({ id: broadcastId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const o = await as(owner);
    expect((await o.broadcasts.pause({ id: broadcastId })).broadcast.status).toBe('paused');
    expect((await o.broadcasts.cancel({ id: broadcastId })).broadcast.status).toBe('cancelled');
    await expect(o.broadcasts.resume({ id: broadcastId })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(o.messages.get({ id: 'msg_nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
