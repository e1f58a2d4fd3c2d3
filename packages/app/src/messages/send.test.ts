import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, newId } from '@mos/core';
import { outboundMessages, resolveContact, touchConversationInbound, updateContact, upsertSyncedTemplate, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { eq } from 'drizzle-orm';
import { fixedClock, testDeps } from '../testing/index';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { sendMessage } from './send';
import { getMessage } from './views';
import { sendMessageInput, type SendMessageInput } from './schemas';

/**
 * The acceptance rules of the send path on a real database and an injected clock: nothing is
 * stored for a refusal; an accepted message is stored `queued` with its content. The governor
 * is woken on a task queue no worker polls, so nothing is sent here (sending is tested with
 * the worker and the provider simulator).
 */
const T0 = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
let tdb: TestDatabase;
let deps: AppDeps;
let clock: ReturnType<typeof fixedClock>;
let scope: Scope;
let other: Scope;

async function contactWithInbound(phone: string, inboundAgoMs: number | null) {
  const c = await resolveContact(deps.db, scope.workspaceId, { phoneNumber: phone, userId: null }, { at: T0 });
  if (inboundAgoMs !== null) await touchConversationInbound(deps.db, scope.workspaceId, c.id, new Date(clock.now().getTime() - inboundAgoMs));
  return c;
}

const text = (to: string, body = 'hello'): SendMessageInput => sendMessageInput.parse({ to, type: 'text', text: { body } });
const template = (to: string, params?: string[]): SendMessageInput =>
  sendMessageInput.parse({ to, type: 'template', template: { name: 'order_update', language: 'en_US', ...(params ? { parameters: { body: params } } : {}) } });

async function refusal(p: Promise<unknown>): Promise<{ code: string; status: number }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return { code: (err as AppError).code, status: (err as AppError).status };
}

const storedCount = async (ws = scope.workspaceId) => (await deps.db.select().from(outboundMessages).where(eq(outboundMessages.workspaceId, ws))).length;

beforeAll(async () => {
  tdb = await createTestDatabase();
  clock = fixedClock(T0);
  deps = testDeps(tdb.db, { clock, env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
  const { workspace } = await upsertWorkspace(tdb.db, `send-${newId('request').slice(-8)}`, { phoneNumberId: '106540352242922' });
  const { workspace: ws2 } = await upsertWorkspace(tdb.db, `send-other-${newId('request').slice(-8)}`, { phoneNumberId: '999' });
  scope = { workspaceId: workspace.id, actorId: 'key_test', role: 'developer' };
  other = { workspaceId: ws2.id, actorId: 'key_other', role: 'developer' };
  const components = [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} shipped' }];
  await upsertSyncedTemplate(
    tdb.db,
    scope.workspaceId,
    { providerTemplateId: '1', name: 'order_update', language: 'en_US', category: 'UTILITY', status: 'approved', components },
    T0,
  );
  await upsertSyncedTemplate(
    tdb.db,
    scope.workspaceId,
    { providerTemplateId: '2', name: 'promo', language: 'en_US', category: 'MARKETING', status: 'pending_approval', components },
    T0,
  );
}, 60_000);

afterAll(async () => {
  await deps?.temporal.close();
  await tdb?.drop();
});

describe('the 24-hour window at acceptance (injected clock)', () => {
  it('accepts free-form content inside the window and stores it queued', async () => {
    await contactWithInbound('+15550000001', 23 * HOUR);
    const { message, replayed } = await sendMessage(deps, scope, text('+15550000001', 'inside'));
    expect(replayed).toBe(false);
    expect(message).toMatchObject({ status: 'queued', to: '+15550000001', type: 'text', createdAt: T0.toISOString() });
    expect(message.id).toMatch(/^msg_/);
    const { message: detail } = await getMessage(deps, scope, message.id);
    expect(detail.statusHistory).toEqual([{ status: 'queued', at: T0.toISOString() }]);
    expect(detail.providerMessageId).toBeNull();
  });

  it('refuses free-form content 24 h after the last inbound message, storing nothing', async () => {
    await contactWithInbound('+15550000002', 24 * HOUR + 1000);
    const before = await storedCount();
    expect(await refusal(sendMessage(deps, scope, text('+15550000002')))).toEqual({ code: 'outside_service_window', status: 422 });
    expect(await storedCount()).toBe(before);
  });

  it('refuses free-form content to a contact that never wrote, and creates no contact for an unknown number', async () => {
    await contactWithInbound('+15550000003', null);
    expect((await refusal(sendMessage(deps, scope, text('+15550000003')))).code).toBe('outside_service_window');
    expect((await refusal(sendMessage(deps, scope, text('+15559999999')))).code).toBe('outside_service_window');
    const { rows } = await tdb.pool.query(`SELECT 1 FROM contacts WHERE phone_number = '+15559999999'`);
    expect(rows).toHaveLength(0);
  });

  it('a new inbound message reopens a closed window', async () => {
    const c = await contactWithInbound('+15550000004', 30 * HOUR);
    expect((await refusal(sendMessage(deps, scope, text('+15550000004')))).code).toBe('outside_service_window');
    await touchConversationInbound(deps.db, scope.workspaceId, c.id, new Date(clock.now().getTime() - 60_000));
    expect((await sendMessage(deps, scope, text('+15550000004'))).message.status).toBe('queued');
  });

  it('the window closes as the clock moves past 24 h', async () => {
    await contactWithInbound('+15550000005', 23 * HOUR);
    await sendMessage(deps, scope, text('+15550000005'));
    clock.advance(HOUR + 1);
    try {
      expect((await refusal(sendMessage(deps, scope, text('+15550000005', 'later')))).code).toBe('outside_service_window');
    } finally {
      clock.set(T0);
    }
  });

  it('templates need no window, and a template to an unknown number creates the contact', async () => {
    const { message } = await sendMessage(deps, scope, template('+15550000006', ['Ana', 'A-1']));
    expect(message).toMatchObject({ status: 'queued', type: 'template' });
    const { rows } = await tdb.pool.query(`SELECT subscriber_status FROM contacts WHERE workspace_id = $1 AND phone_number = '+15550000006'`, [
      scope.workspaceId,
    ]);
    expect(rows).toEqual([{ subscriber_status: 'subscribed' }]);
  });
});

describe('each message type', () => {
  it.each([
    ['image', { link: 'https://cdn.example.com/a.jpg', caption: 'look' }],
    ['document', { link: 'https://cdn.example.com/a.pdf', filename: 'a.pdf' }],
    ['audio', { link: 'https://cdn.example.com/a.ogg' }],
    ['video', { link: 'https://cdn.example.com/a.mp4', caption: 'watch' }],
  ])('stores %s content as given', async (type, media) => {
    const phone = `+1555100${String(type.length).padStart(4, '0')}`;
    await contactWithInbound(phone, HOUR);
    const { message } = await sendMessage(deps, scope, sendMessageInput.parse({ to: phone, type, [type]: media }));
    const { rows } = await tdb.pool.query(`SELECT type, content FROM outbound_messages WHERE id = $1`, [message.id]);
    expect(rows[0]).toEqual({ type, content: { kind: type, media } });
  });
});

describe('refusals', () => {
  it('an unsubscribed or blocked contact: 422 contact_unsubscribed', async () => {
    const c = await contactWithInbound('+15550000007', HOUR);
    await updateContact(deps.db, scope.workspaceId, c.id, { subscriberStatus: 'unsubscribed' }, T0);
    expect(await refusal(sendMessage(deps, scope, text('+15550000007')))).toEqual({ code: 'contact_unsubscribed', status: 422 });
    expect((await refusal(sendMessage(deps, scope, template('+15550000007', ['a', 'b'])))).code).toBe('contact_unsubscribed');
  });

  it('a template that is not approved, or unknown: 422 template_not_approved', async () => {
    const pending = sendMessageInput.parse({
      to: '+15550000008',
      type: 'template',
      template: { name: 'promo', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    expect(await refusal(sendMessage(deps, scope, pending))).toEqual({ code: 'template_not_approved', status: 422 });
    const unknown = sendMessageInput.parse({ to: '+15550000008', type: 'template', template: { name: 'order_update', language: 'de' } });
    expect((await refusal(sendMessage(deps, scope, unknown))).code).toBe('template_not_approved');
  });

  it('a template with the wrong number of body parameters: 400 validation_failed', async () => {
    expect(await refusal(sendMessage(deps, scope, template('+15550000009', ['only one'])))).toEqual({ code: 'validation_failed', status: 400 });
  });

  it('an unknown contact id: 422 contact_not_found', async () => {
    const input = sendMessageInput.parse({
      contactId: newId('contact'),
      type: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    expect(await refusal(sendMessage(deps, scope, input))).toEqual({ code: 'contact_not_found', status: 422 });
  });

  it('a workspace without a sending number: 422 no_phone_number', async () => {
    const { workspace } = await upsertWorkspace(tdb.db, `nonumber-${newId('request').slice(-8)}`);
    const s: Scope = { workspaceId: workspace.id, actorId: 'key_x', role: 'developer' };
    expect(await refusal(sendMessage(deps, s, template('+15550000010', ['a', 'b'])))).toEqual({ code: 'no_phone_number', status: 422 });
  });

  it("another workspace's message is not found", async () => {
    await contactWithInbound('+15550000011', HOUR);
    const { message } = await sendMessage(deps, scope, text('+15550000011'));
    expect(await refusal(getMessage(deps, other, message.id))).toEqual({ code: 'message_not_found', status: 404 });
    expect((await refusal(getMessage(deps, scope, 'msg_nope'))).code).toBe('message_not_found');
  });
});

describe('idempotency', () => {
  it('20 concurrent identical requests store one message and all get it', async () => {
    await contactWithInbound('+15550000012', HOUR);
    const key = `order-${newId('request')}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => sendMessage(deps, scope, text('+15550000012', 'once'), { idempotencyKey: key })));
    const ids = new Set(results.map((r) => r.message.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const { rows } = await tdb.pool.query(`SELECT count(*)::int AS n FROM outbound_messages WHERE workspace_id = $1 AND idempotency_key = $2`, [
      scope.workspaceId,
      key,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('the same key with another body is 409 idempotency_key_reused; key order in the body does not matter', async () => {
    await contactWithInbound('+15550000013', HOUR);
    const key = `k-${newId('request')}`;
    const first = await sendMessage(deps, scope, text('+15550000013', 'one'), { idempotencyKey: key });
    const reordered = sendMessageInput.parse({ text: { body: 'one' }, type: 'text', to: '+15550000013' });
    const again = await sendMessage(deps, scope, reordered, { idempotencyKey: key });
    expect(again).toEqual({ message: first.message, replayed: true });
    expect(await refusal(sendMessage(deps, scope, text('+15550000013', 'two'), { idempotencyKey: key }))).toEqual({
      code: 'idempotency_key_reused',
      status: 409,
    });
  });

  it('keys are per workspace', async () => {
    const key = `shared-${newId('request')}`;
    await contactWithInbound('+15550000014', HOUR);
    await sendMessage(deps, scope, text('+15550000014'), { idempotencyKey: key });
    const c = await resolveContact(deps.db, other.workspaceId, { phoneNumber: '+15550000014', userId: null }, { at: T0 });
    await touchConversationInbound(deps.db, other.workspaceId, c.id, new Date(T0.getTime() - HOUR));
    const theirs = await sendMessage(deps, other, text('+15550000014'), { idempotencyKey: key });
    expect(theirs.replayed).toBe(false);
  });
});
