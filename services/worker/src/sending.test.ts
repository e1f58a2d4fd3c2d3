import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { getMessage, sendMessage, sendMessageInput, type SendMessageInput } from '@mos/app';
import { GOVERNOR_BACKLOG_QUERY, sendGovernorWorkflowId, type GovernorBacklog } from '@mos/workflows/contract';
import { waitFor } from './testing';
import { PHONE_NUMBER_ID, seedTemplate, startSendStack, type SendStack } from './testing/send-stack';

/**
 * The send path end to end: /v1's sendMessage persists, the governor sends through the
 * provider simulator, the simulator's signed status webhooks come back through the ingress and
 * the webhook pipeline and move each message forward. Each provider answer the simulator can
 * give is injected and handled by its code. Pair spacing is shortened to 1.5 s on both sides.
 */
const PAIR_MS = 1500;
let tdb: TestDatabase;
let stack: SendStack;
let seq = 0;
const nextPhone = () => `+1555300${String(++seq).padStart(4, '0')}`;

const send = (input: Record<string, unknown>, key?: string) =>
  sendMessage(stack.deps, stack.scope, sendMessageInput.parse(input) as SendMessageInput, { idempotencyKey: key });
const detail = async (id: string) => (await getMessage(stack.deps, stack.scope, id)).message;
const statusOf = (id: string, ...wanted: string[]) =>
  waitFor(
    async () => {
      const m = await detail(id);
      return wanted.includes(m.status) ? m : null;
    },
    { timeoutMs: 30_000, what: `${id} to reach ${wanted.join('|')}` },
  );

/** The customer writes (the simulator learns the window and delivers the signed inbound webhook to mos). */
async function customerWrites(phone: string): Promise<void> {
  await stack.sim.inbound({ from: phone, deliver: true, text: 'hi' });
  await waitFor(
    async () => {
      const { rows } = await tdb.pool.query(
        `SELECT 1 FROM conversations cv JOIN contacts c ON c.id = cv.contact_id WHERE c.workspace_id = $1 AND c.phone_number = $2 AND cv.window_expires_at > now()`,
        [stack.scope.workspaceId, phone],
      );
      return rows.length > 0;
    },
    { what: `the window of ${phone} in mos` },
  );
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  stack = await startSendStack(tdb.db, tdb.url, {
    pairSpacingMs: PAIR_MS,
    requeueUnansweredAfterMs: 4000,
    providerTimeoutMs: 1500,
    sim: { pairSpacingMs: PAIR_MS, readShare: 1 },
  });
  await seedTemplate(stack, 'order_update', 'Hi {{1}}, order {{2}} shipped');
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await tdb?.drop();
});

describe('sending each type through the governor', () => {
  it('text and media inside the window, and a template, go out once and move sent -> delivered -> read from status webhooks', async () => {
    const phone = nextPhone();
    await customerWrites(phone);
    const text = await send({ to: phone, type: 'text', text: { body: 'hello' } });
    const tpl = await send({ to: nextPhone(), type: 'template', template: { name: 'order_update', language: 'en_US', parameters: { body: ['Ana', 'A-1'] } } });
    const read = await Promise.all([statusOf(text.message.id, 'read'), statusOf(tpl.message.id, 'read')]);
    for (const m of read) {
      expect(m.statusHistory.map((h) => h.status)).toEqual(['queued', 'sent', 'delivered', 'read']);
      expect(m.providerMessageId).toMatch(/^wamid\./);
      expect(m.attempts).toBe(1);
    }
    const simText = stack.sim.messages().find((s) => s.id === read[0].providerMessageId)!;
    expect(simText.body).toMatchObject({ type: 'text', text: { body: 'hello' }, biz_opaque_callback_data: text.message.id });
    for (const type of ['image', 'document', 'audio', 'video'] as const) {
      const p = nextPhone();
      await customerWrites(p);
      const { message } = await send({ to: p, type, [type]: { link: `https://cdn.example.com/x.${type}` } });
      const sent = await statusOf(message.id, 'sent', 'delivered', 'read');
      expect(stack.sim.messages().find((s) => s.id === sent.providerMessageId)?.body).toMatchObject({
        type,
        [type]: { link: `https://cdn.example.com/x.${type}` },
      });
    }
    expect(stack.sim.stats().duplicates).toBe(0);
  });

  it('the governor answers a backlog query in the Temporal UI', async () => {
    const { message } = await send({
      to: nextPhone(),
      type: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    await statusOf(message.id, 'sent', 'delivered', 'read');
    const client = await stack.deps.temporal.get();
    const backlog = await client.workflow
      .getHandle(sendGovernorWorkflowId(stack.scope.workspaceId, PHONE_NUMBER_ID))
      .query<GovernorBacklog>(GOVERNOR_BACKLOG_QUERY);
    expect(backlog).toMatchObject({ workspaceId: stack.scope.workspaceId, phoneNumberId: PHONE_NUMBER_ID });
    expect(backlog.totals.sent).toBeGreaterThanOrEqual(1);
    expect(backlog.totals.slices).toBeGreaterThanOrEqual(1);
  });
});

describe('limits mos enforces before the provider would refuse', () => {
  it('messages to one recipient are spaced by the pair limit, never refused with 131056', async () => {
    const phone = nextPhone();
    await customerWrites(phone);
    const before = stack.sim.stats().rejectionsByCode['131056'] ?? 0;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await send({ to: phone, type: 'text', text: { body: `n${i}` } })).message.id);
    const done = await Promise.all(ids.map((id) => statusOf(id, 'sent', 'delivered', 'read')));
    const times = done.map((m) => Date.parse(m.sentAt!)).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(PAIR_MS);
    expect(stack.sim.stats().rejectionsByCode['131056'] ?? 0).toBe(before);
    expect(stack.sim.stats().pairViolations).toBe(0);
  });

  it('a contact unsubscribed after acceptance gets nothing: the message is skipped at send time', async () => {
    const phone = nextPhone();
    await customerWrites(phone);
    // Keep the governor busy with this recipient so the second message waits for its turn.
    const first = await send({ to: phone, type: 'text', text: { body: 'first' } });
    const second = await send({ to: phone, type: 'text', text: { body: 'second' } });
    await statusOf(first.message.id, 'sent', 'delivered', 'read');
    await tdb.pool.query(`UPDATE contacts SET subscriber_status = 'unsubscribed' WHERE workspace_id = $1 AND phone_number = $2`, [
      stack.scope.workspaceId,
      phone,
    ]);
    const skipped = await statusOf(second.message.id, 'skipped');
    expect(skipped.error).toMatchObject({ code: 'contact_unsubscribed' });
    expect(stack.sim.messages().some((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === second.message.id)).toBe(false);
  });
});

describe('provider answers, by code', () => {
  it('131047 (the provider closed the window) fails the message and closes our window', async () => {
    const phone = nextPhone();
    await customerWrites(phone);
    stack.sim.closeWindow(phone);
    const { message } = await send({ to: phone, type: 'text', text: { body: 'too late' } });
    const failed = await statusOf(message.id, 'failed');
    expect(failed.error).toMatchObject({ code: 131047 });
    expect(failed.statusHistory.at(-1)).toMatchObject({ status: 'failed', code: 131047 });
    const err = await send({ to: phone, type: 'text', text: { body: 'again' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('outside_service_window');
  });

  it('a late 131047 on a status webhook fails the message and closes the window for the next one', async () => {
    const phone = nextPhone();
    await customerWrites(phone);
    // Timestamps on webhooks are whole seconds: a failure reported in the same second as the
    // customer's message cannot be ordered after it, so the report comes a second later.
    await new Promise((r) => setTimeout(r, 1100));
    stack.sim.setStatusOptions({ failShare: 1, failCodes: [131047] });
    try {
      const { message } = await send({ to: phone, type: 'text', text: { body: 'accepted, then failed' } });
      const failed = await statusOf(message.id, 'failed');
      expect(failed.error).toMatchObject({ code: 131047 });
      expect(failed.statusHistory.map((h) => h.status)).toEqual(['queued', 'sent', 'failed']);
    } finally {
      stack.sim.setStatusOptions({ failShare: 0 });
    }
    const err = await send({ to: phone, type: 'text', text: { body: 'again' } }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('outside_service_window');
    // A new message from the customer opens it again.
    await customerWrites(phone);
    expect((await send({ to: phone, type: 'text', text: { body: 'reopened' } })).message.status).toBe('queued');
  });

  it('132000, 132001 and 132015 (template errors) fail the message with the provider details', async () => {
    await seedTemplate(stack, 'param_drift', 'Hello {{1}}', { simBodyText: 'Hello {{1}} and {{2}}' });
    await seedTemplate(stack, 'not_in_provider', 'Hello {{1}}', { inSimulator: false });
    await seedTemplate(stack, 'paused_there', 'Hello {{1}}', { simStatus: 'PAUSED' });
    const paused = await send({ to: nextPhone(), type: 'template', template: { name: 'paused_there', language: 'en_US', parameters: { body: ['x'] } } });
    expect((await statusOf(paused.message.id, 'failed')).error).toMatchObject({ code: 132015, title: expect.any(String) });
    const drift = await send({ to: nextPhone(), type: 'template', template: { name: 'param_drift', language: 'en_US', parameters: { body: ['x'] } } });
    const missing = await send({ to: nextPhone(), type: 'template', template: { name: 'not_in_provider', language: 'en_US', parameters: { body: ['x'] } } });
    expect((await statusOf(drift.message.id, 'failed')).error).toMatchObject({ code: 132000 });
    expect((await statusOf(missing.message.id, 'failed')).error).toMatchObject({ code: 132001 });
  });

  it('131056 (pair limit hit by a send mos did not make) backs off and retries without loss', async () => {
    const template = {
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
    };
    // Another sender on the same number reaches this customer every 20 ms: the simulator takes one
    // of its sends each time the pair window frees, so mos's send collides unless it lands in
    // that gap of a few milliseconds; then the scenario is tried again with another customer.
    let collided: string | null = null;
    for (let round = 0; round < 3 && !collided; round++) {
      const phone = nextPhone();
      let blocking = true;
      const blocker = (async () => {
        while (blocking) {
          await fetch(`${stack.sim.url}/v23.0/${PHONE_NUMBER_ID}/messages`, {
            method: 'POST',
            headers: { authorization: 'Bearer sim-access-token', 'content-type': 'application/json' },
            body: JSON.stringify({ messaging_product: 'whatsapp', to: phone.slice(1), type: 'template', template }),
          });
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const { message } = await send({ to: phone, type: 'template', template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } } });
      try {
        const outcome = await waitFor(
          async () => {
            const { rows } = await tdb.pool.query(`SELECT status, error->>'code' AS code FROM outbound_messages WHERE id = $1`, [message.id]);
            return rows[0]?.code === '131056' ? 'collided' : ['sent', 'delivered', 'read'].includes(rows[0]?.status) ? 'slipped through' : null;
          },
          { what: 'the send to be answered' },
        );
        if (outcome === 'collided') collided = message.id;
      } finally {
        blocking = false;
        await blocker;
      }
    }
    expect(collided).not.toBeNull();
    const m = await statusOf(collided!, 'sent', 'delivered', 'read');
    expect(m.attempts).toBeGreaterThanOrEqual(2);
    expect(stack.sim.messages().filter((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === collided)).toHaveLength(1);
  });

  it('130429 (throughput) answers back off and retry without loss', async () => {
    stack.sim.setThroughput(PHONE_NUMBER_ID, 2);
    try {
      const ids = [];
      for (let i = 0; i < 8; i++)
        ids.push(
          (await send({ to: nextPhone(), type: 'template', template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } } })).message
            .id,
        );
      const done = await Promise.all(ids.map((id) => statusOf(id, 'sent', 'delivered', 'read')));
      expect(done.every((m) => m.providerMessageId)).toBe(true);
      expect(stack.sim.stats().rejectionsByCode['130429']).toBeGreaterThan(0);
    } finally {
      stack.sim.setThroughput(PHONE_NUMBER_ID, 80);
    }
    expect(stack.sim.stats().duplicates).toBe(0);
  });

  it('20 concurrent identical requests with one Idempotency-Key: one message, one send', async () => {
    const key = `idem-${Date.now()}`;
    const body = { to: nextPhone(), type: 'template', template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } } };
    const results = await Promise.all(Array.from({ length: 20 }, () => send(body, key)));
    expect(new Set(results.map((r) => r.message.id)).size).toBe(1);
    const id = results[0]!.message.id;
    await statusOf(id, 'sent', 'delivered', 'read');
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.sim.messages().filter((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === id)).toHaveLength(1);
  });

  it('5xx answers retry with back-off and send once', async () => {
    stack.sim.failNext(500, 2);
    const { message } = await send({
      to: nextPhone(),
      type: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    const m = await statusOf(message.id, 'sent', 'delivered', 'read');
    expect(m.attempts).toBe(3);
    expect(stack.sim.messages().filter((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === message.id)).toHaveLength(1);
  });

  it('a timeout after the provider accepted is settled by the status webhook, never sent twice', async () => {
    stack.sim.setFaults({ timeoutShare: 1, timeoutMode: 'after_accept', hangMs: 5000 });
    const { message } = await send({
      to: nextPhone(),
      type: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    try {
      await waitFor(async () => stack.sim.stats().timeouts.afterAccept >= 1, { what: 'the hung send' });
    } finally {
      stack.sim.setFaults({ timeoutShare: 0 });
    }
    const m = await statusOf(message.id, 'delivered', 'read');
    expect(m.attempts).toBe(1);
    expect(stack.sim.messages().filter((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === message.id)).toHaveLength(1);
    expect(stack.sim.stats().duplicates).toBe(0);
  });

  it('a timeout before the provider accepted is sent again once the reconcile delay passes', async () => {
    stack.sim.setFaults({ timeoutShare: 1, timeoutMode: 'before_accept', hangMs: 3000 });
    const { message } = await send({
      to: nextPhone(),
      type: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
    });
    try {
      await waitFor(async () => stack.sim.stats().timeouts.beforeAccept >= 1, { what: 'the refused send' });
    } finally {
      stack.sim.setFaults({ timeoutShare: 0 });
    }
    const m = await statusOf(message.id, 'sent', 'delivered', 'read');
    expect(m.attempts).toBe(2);
    expect(stack.sim.messages().filter((s) => (s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === message.id)).toHaveLength(1);
  });

  it('an asynchronous failure on a status webhook fails the message with its code', async () => {
    stack.sim.setStatusOptions({ failShare: 1, failCodes: [131026] });
    try {
      const { message } = await send({
        to: nextPhone(),
        type: 'template',
        template: { name: 'order_update', language: 'en_US', parameters: { body: ['a', 'b'] } },
      });
      const m = await statusOf(message.id, 'failed');
      expect(m.error).toMatchObject({ code: 131026 });
      expect(m.statusHistory.map((h) => h.status)).toEqual(['queued', 'sent', 'failed']);
    } finally {
      stack.sim.setStatusOptions({ failShare: 0 });
    }
  });
});
