import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { resolveContact, touchConversationInbound, updateContact, upsertSyncedTemplate, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { broadcastResult, createBroadcastResult, getMessageResult, sendMessageResult, type AppDeps } from '@mos/app';
import { createApiApp } from '../../app';
import { seedApiKey, v1, type SeededKey } from './testing';

/**
 * The /v1 send and broadcast routes over HTTP: status codes, bodies and headers of every
 * answer, validated against the published schemas. Workflows are started on a task queue no
 * worker polls, so nothing is sent (the worker's suites send through the simulator).
 */
describe('/v1 messages and broadcasts over HTTP', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let k: SeededKey;
  const OPEN = '+15557000001';
  const CLOSED = '+15557000002';
  const UNSUB = '+15557000003';

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    api = await listen(createApiApp(deps));
    k = await seedApiKey(deps);
    const ws = (await tdb.pool.query(`SELECT slug FROM workspaces WHERE id = $1`, [k.workspaceId])).rows[0].slug as string;
    await upsertWorkspace(tdb.db, ws, { phoneNumberId: '106540352242922' });
    const now = Date.now();
    for (const [phone, agoMs] of [
      [OPEN, 3_600_000],
      [CLOSED, 25 * 3_600_000],
      [UNSUB, 3_600_000],
    ] as const) {
      const c = await resolveContact(tdb.db, k.workspaceId, { phoneNumber: phone, userId: null }, { at: new Date() });
      await touchConversationInbound(tdb.db, k.workspaceId, c.id, new Date(now - agoMs));
      if (phone === UNSUB) await updateContact(tdb.db, k.workspaceId, c.id, { subscriberStatus: 'unsubscribed' }, new Date());
    }
    const components = [{ type: 'BODY', text: 'Hi {{1}}' }];
    await upsertSyncedTemplate(
      tdb.db,
      k.workspaceId,
      { providerTemplateId: '1', name: 'hello', language: 'en_US', category: 'UTILITY', status: 'approved', components },
      new Date(),
    );
    await upsertSyncedTemplate(
      tdb.db,
      k.workspaceId,
      { providerTemplateId: '2', name: 'draft_one', language: 'en_US', category: 'UTILITY', status: 'pending_approval', components },
      new Date(),
    );
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => v1(api.url, k.key, path, { method: 'POST', body, headers });
  const get = (path: string) => v1(api.url, k.key, path);
  const hello = { name: 'hello', language: 'en_US', parameters: { body: ['Ana'] } };

  it('POST /v1/messages: 202 {message} queued; GET /v1/messages/{id} shows it with its history', async () => {
    const res = await post('/messages', { to: OPEN, type: 'text', text: { body: 'hi' } });
    expect(res.status).toBe(202);
    const { message } = sendMessageResult.parse(res.body);
    expect(message).toMatchObject({ status: 'queued', to: OPEN, type: 'text' });
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const got = await get(`/messages/${message.id}`);
    expect(got.status).toBe(200);
    expect(getMessageResult.parse(got.body).message).toMatchObject({
      id: message.id,
      status: 'queued',
      providerMessageId: null,
      statusHistory: [{ status: 'queued' }],
    });
  });

  it('Idempotency-Key: a retry answers the first message with Idempotent-Replayed; another body is 409', async () => {
    const key = `idem-${newId('request')}`;
    const body = { to: OPEN, type: 'template', template: hello };
    const first = await post('/messages', body, { 'idempotency-key': key });
    const again = await post('/messages', body, { 'idempotency-key': key });
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await post('/messages', { ...body, to: CLOSED }, { 'idempotency-key': key });
    expect(reused).toMatchObject({ status: 409, body: { error: 'idempotency_key_reused', message: expect.any(String) } });
  });

  it('every refusal before anything is queued, with its status and body', async () => {
    const cases: [unknown, number, string][] = [
      [{ to: CLOSED, type: 'text', text: { body: 'x' } }, 422, 'outside_service_window'],
      [{ to: CLOSED, type: 'image', image: { link: 'https://x.example/a.png' } }, 422, 'outside_service_window'],
      [{ to: '+15557009999', type: 'text', text: { body: 'never wrote' } }, 422, 'outside_service_window'],
      [{ to: UNSUB, type: 'template', template: hello }, 422, 'contact_unsubscribed'],
      [{ to: OPEN, type: 'template', template: { ...hello, name: 'draft_one' } }, 422, 'template_not_approved'],
      [{ to: OPEN, type: 'template', template: { ...hello, name: 'nope' } }, 422, 'template_not_approved'],
      [{ to: OPEN, type: 'template', template: { name: 'hello', language: 'en_US' } }, 400, 'validation_failed'],
      [{ contactId: newId('contact'), type: 'template', template: hello }, 422, 'contact_not_found'],
    ];
    const before = (await tdb.pool.query(`SELECT count(*)::int AS n FROM outbound_messages`)).rows[0].n;
    for (const [body, status, error] of cases) {
      const res = await post('/messages', body);
      expect({ status: res.status, error: (res.body as { error: string }).error }, JSON.stringify(body)).toEqual({ status, error });
      expect((res.body as { message?: string }).message).toEqual(expect.any(String));
    }
    expect((await tdb.pool.query(`SELECT count(*)::int AS n FROM outbound_messages`)).rows[0].n).toBe(before);
  });

  it('GET /v1/messages/{id}: 404 message_not_found for an unknown or foreign id', async () => {
    expect(await get(`/messages/${newId('message')}`)).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
    const other = await seedApiKey(deps);
    const mine = sendMessageResult.parse((await post('/messages', { to: OPEN, type: 'template', template: hello })).body);
    expect(await v1(api.url, other.key, `/messages/${mine.message.id}`)).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
  });

  it('broadcasts: 202 on create, counts on read, pause/resume/cancel by status, 409 when the status forbids it', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const created = await post('/broadcasts', { name: 'later', template: hello, segment: { subscriberStatus: 'subscribed' }, scheduledAt: at });
    expect(created.status).toBe(202);
    const { broadcast } = createBroadcastResult.parse(created.body);
    expect(broadcast).toEqual({ id: expect.stringMatching(/^brd_/), status: 'scheduled' });
    const read = await get(`/broadcasts/${broadcast.id}`);
    expect(read.status).toBe(200);
    expect(broadcastResult.parse(read.body).broadcast).toMatchObject({
      status: 'scheduled',
      scheduledAt: at,
      counts: { total: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0 },
    });
    expect((await post(`/broadcasts/${broadcast.id}/resume`, {})).body).toMatchObject({ error: 'invalid_broadcast_state' });
    expect(await post(`/broadcasts/${broadcast.id}/pause`, {})).toMatchObject({ status: 200, body: { broadcast: { status: 'paused' } } });
    // Paused before it began: resuming puts it back to waiting for its time.
    expect(await post(`/broadcasts/${broadcast.id}/resume`, {})).toMatchObject({ status: 200, body: { broadcast: { status: 'scheduled' } } });
    expect(await post(`/broadcasts/${broadcast.id}/cancel`, {})).toMatchObject({ status: 200, body: { broadcast: { status: 'cancelled' } } });
    expect(await post(`/broadcasts/${broadcast.id}/pause`, {})).toMatchObject({ status: 409, body: { error: 'invalid_broadcast_state' } });
    expect(await get(`/broadcasts/${newId('broadcast')}`)).toMatchObject({ status: 404, body: { error: 'broadcast_not_found' } });
  });

  it('a broadcast of an unapproved template is refused before anything is stored', async () => {
    const res = await post('/broadcasts', { template: { ...hello, name: 'draft_one' }, segment: {} });
    expect(res).toMatchObject({ status: 422, body: { error: 'template_not_approved' } });
    expect((await tdb.pool.query(`SELECT count(*)::int AS n FROM broadcasts WHERE template->>'name' = 'draft_one'`)).rows[0].n).toBe(0);
  });
});
