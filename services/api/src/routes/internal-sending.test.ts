import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { resolveContact, touchConversationInbound, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { messageListView, sendMessage, sendMessageInput, type AppDeps } from '@mos/app';
import { createApiApp } from '../app';

/** Operators' views of what was sent: /internal and tRPC answer alike, per workspace, viewers see numbers masked. */
describe('GET /internal/messages and /internal/broadcasts', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let stranger: SeededOperator;
  const ids: string[] = [];
  const PHONE = '+15558000001';

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    api = await listen(createApiApp(deps));
    owner = await seedOperator(deps, { role: 'owner', phoneNumberId: '106540352242922' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    stranger = await seedOperator(deps, { role: 'owner' });
    await upsertWorkspace(tdb.db, owner.workspaceSlug, { phoneNumberId: '106540352242922' });
    const c = await resolveContact(tdb.db, owner.workspaceId, { phoneNumber: PHONE, userId: null }, { at: new Date() });
    await touchConversationInbound(tdb.db, owner.workspaceId, c.id, new Date());
    const scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role };
    for (let i = 0; i < 3; i++)
      ids.push((await sendMessage(deps, scope, sendMessageInput.parse({ to: PHONE, type: 'text', text: { body: `m${i}` } }))).message.id);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  const get = (path: string, op: SeededOperator = owner) => jsonRequest(`${api.url}/internal${path}`, { headers: bearer(op.token) });

  it('lists messages newest first with keyset pages and their status history', async () => {
    const first = await get('/messages?limit=2');
    expect(first.status).toBe(200);
    const page = messageListView.parse(first.body);
    expect(page.messages.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    expect(page.messages[0]).toMatchObject({ to: PHONE, status: 'queued', statusHistory: [{ status: 'queued' }] });
    const rest = messageListView.parse((await get(`/messages?limit=2&cursor=${page.nextCursor}`)).body);
    expect(rest).toEqual({ messages: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect(messageListView.parse((await get('/messages?status=read')).body).messages).toEqual([]);
  });

  it('one message by id; another workspace cannot see it; viewers see the number masked', async () => {
    expect(await get(`/messages/${ids[0]}`)).toMatchObject({ status: 200, body: { message: { id: ids[0], to: PHONE } } });
    expect(await get(`/messages/${ids[0]}`, stranger)).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
    const masked = await get(`/messages/${ids[0]}`, viewer);
    expect(masked.status).toBe(200);
    expect(masked.body.message.to).not.toBe(PHONE);
    expect(masked.body.message.to).toMatch(/•|\*|x/i);
  });

  it('bad query values are 400 invalid_query', async () => {
    for (const q of ['limit=0', 'limit=500', 'status=bogus', 'status=a&status=b', 'cursor=%00']) {
      const res = await get(`/messages?${q}`);
      expect(res.status, q).toBe(400);
      expect(['invalid_query', 'invalid_request'], q).toContain(res.body.error);
    }
  });

  it('broadcasts list and 404 by id', async () => {
    expect(await get('/broadcasts')).toMatchObject({ status: 200, body: { broadcasts: [], nextCursor: null } });
    expect(await get(`/broadcasts/${newId('broadcast')}`)).toMatchObject({ status: 404, body: { error: 'broadcast_not_found' } });
  });
});
