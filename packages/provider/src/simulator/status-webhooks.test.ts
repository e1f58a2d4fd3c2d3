import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from './index';
import { webhookFixture, webhookReceiver, type StatusEntry } from './testing';

const TOKEN = 'sim-token-status';
const SECRET = 'whsec-status';
const WABA = '102290129340398';
const PHONE = '106540352242922';

describe('simulator status webhooks', () => {
  let sim: RunningSimulator;
  let rx: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    rx = await webhookReceiver(SECRET);
    sim = await startSimulator({
      accessToken: TOKEN,
      wabaId: WABA,
      phoneNumberId: PHONE,
      url: rx.url,
      signingSecret: SECRET,
      statusDelaysMs: { sentMs: 10, deliveredMs: 40, readMs: 40 },
      statusFlushMs: 20,
      statusBatchMax: 25,
      statusRetryBaseMs: 20,
      throughputPerSecond: 1000,
      readShare: 1,
      seed: 7,
    });
    sim.seedApprovedTemplate({
      name: 'shipped',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order has shipped today.' }],
    });
  });
  afterAll(async () => {
    await sim?.close();
    await rx?.close();
  });
  beforeEach(() => {
    sim.reset();
    sim.setStatusOptions({ readShare: 1, failShare: 0, failCodes: [131026], enabled: true });
    rx.answerWith(() => 200);
    rx.got.splice(0);
  });

  const sendMany = async (count: number, prefix = '4477009') => {
    const res = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        fetch(`${sim.url}/v23.0/${PHONE}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to: `${prefix}${String(i).padStart(5, '0')}`,
            type: 'template',
            biz_opaque_callback_data: `mos-${i}`,
            template: { name: 'shipped', language: { code: 'en_US' } },
          }),
        }).then((r) => r.json() as Promise<{ messages: { id: string }[] }>),
      ),
    );
    return res.map((r) => r.messages[0]!.id);
  };
  const byMessage = (statuses: StatusEntry[]) => {
    const out = new Map<string, StatusEntry[]>();
    for (const s of statuses) out.set(s.id, [...(out.get(s.id) ?? []), s]);
    return out;
  };

  it('arrive signed, batched per phone number, in order sent -> delivered -> read, echoing biz_opaque_callback_data', async () => {
    const ids = await sendMany(60);
    // Real timers: the tick-driven flush loop alone must bring every message to `read`.
    await vi.waitFor(() => expect(rx.statuses()).toHaveLength(180), { timeout: 5000, interval: 50 });
    expect(rx.got.every((w) => w.verified)).toBe(true);
    expect(new Set(rx.got.map((w) => w.headers['x-provider-delivery-id'])).size).toBe(rx.got.length);
    const sizes = rx.got.map((w) => w.body.entry[0]!.changes[0]!.value.statuses!.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(25);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(rx.got.length).toBeLessThan(180 / 2);

    const sent = webhookFixture('status-sent.json');
    for (const w of rx.got) {
      expect(w.body.object).toBe(sent.object);
      expect(w.body.entry[0]!.id).toBe(WABA);
      expect(w.body.entry[0]!.changes[0]!.field).toBe('messages');
      expect(w.body.entry[0]!.changes[0]!.value.metadata).toEqual({ display_phone_number: '15550783881', phone_number_id: PHONE });
    }
    const lifecycles = byMessage(rx.statuses());
    expect([...lifecycles.keys()].sort()).toEqual([...ids].sort());
    ids.forEach((id, i) => {
      const [s, d, r] = lifecycles.get(id)!;
      expect(lifecycles.get(id)!.map((x) => x.status)).toEqual(['sent', 'delivered', 'read']);
      expect(Object.keys(s!).sort()).toEqual([...Object.keys(sent.entry[0].changes[0].value.statuses[0]), 'biz_opaque_callback_data'].sort());
      expect(s).toMatchObject({ recipient_id: `4477009${String(i).padStart(5, '0')}`, biz_opaque_callback_data: `mos-${i}` });
      expect(s).toMatchObject({ conversation: { origin: { type: 'utility' } }, pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } });
      expect(d).toMatchObject({ biz_opaque_callback_data: `mos-${i}`, conversation: s!.conversation, pricing: s!.pricing });
      expect(Object.keys(r!).sort()).toEqual(['biz_opaque_callback_data', 'id', 'recipient_id', 'status', 'timestamp']);
      expect(Number(s!.timestamp)).toBeLessThanOrEqual(Number(d!.timestamp));
    });
    expect(sim.messages().every((m) => m.statuses.join() === 'sent,delivered,read')).toBe(true);
    expect(sim.stats()).toMatchObject({
      statusesDelivered: 180,
      webhookDeliveryFailures: 0,
      statuses: { byStatus: { sent: 60, delivered: 60, read: 60, failed: 0 }, queued: 0, envelopesPending: 0, envelopesDelivered: rx.got.length },
    });
  });

  it('failShare sends `failed` with the configured codes (fixture shape) instead of delivered, and readShare 0 sends no read', async () => {
    sim.setStatusOptions({ failShare: 0.5, failCodes: [131026, 131049], readShare: 0 });
    const ids = await sendMany(40, '3933300');
    await sim.flushStatuses({ all: true });
    const lifecycles = byMessage(rx.statuses());
    const outcomes = ids.map((id) =>
      lifecycles
        .get(id)!
        .map((s) => s.status)
        .join(),
    );
    expect(new Set(outcomes)).toEqual(new Set(['sent,failed', 'sent,delivered']));
    const failed = rx.statuses().filter((s) => s.status === 'failed');
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    const shape = webhookFixture('status-failed-131047.json').entry[0].changes[0].value.statuses[0];
    for (const f of failed) {
      expect(Object.keys(f).sort()).toEqual([...Object.keys(shape), 'biz_opaque_callback_data'].sort());
      expect(Object.keys(f.errors![0]!).sort()).toEqual(Object.keys(shape.errors[0]).sort());
      expect([131026, 131049]).toContain(f.errors![0]!.code);
      expect(f.errors![0]!.error_data.details).toEqual(expect.any(String));
    }
    expect(new Set(failed.map((f) => f.errors![0]!.code))).toEqual(new Set([131026, 131049]));
    expect(failed.find((f) => f.errors![0]!.code === 131026)!.errors![0]).toMatchObject({ title: 'Message undeliverable', message: 'Message undeliverable' });
    expect(sim.stats().statuses.byStatus).toEqual({ sent: 40, delivered: 40 - failed.length, read: 0, failed: failed.length });
  });

  it('retries a delivery mos did not acknowledge, with the same delivery id and bytes, and the lifecycle goes on', async () => {
    let calls = 0;
    rx.answerWith(() => (++calls <= 2 ? 503 : 200));
    const [id] = await sendMany(1, '3933411');
    await sim.flushStatuses({ all: true });
    expect(rx.got.map((w) => w.answered)).toEqual([503, 503, 200, 200, 200]);
    expect(rx.got[0]!.headers['x-provider-delivery-id']).toBe(rx.got[2]!.headers['x-provider-delivery-id']);
    expect(rx.got[0]!.raw.equals(rx.got[2]!.raw)).toBe(true);
    expect(rx.statuses().map((s) => [s.id, s.status])).toEqual([
      [id, 'sent'],
      [id, 'delivered'],
      [id, 'read'],
    ]);
    expect(sim.stats()).toMatchObject({ webhookDeliveryFailures: 2, statusesDelivered: 3, statuses: { givenUp: 0 } });
  });

  it('statusWebhooks off (or enabled: false) sends nothing', async () => {
    sim.setStatusOptions({ enabled: false });
    await sendMany(3, '3933422');
    await sim.flushStatuses({ all: true });
    expect(rx.got).toHaveLength(0);
    expect(sim.stats().statuses).toMatchObject({ enabled: false, queued: 0, delivered: 0 });
  });

  it('the control routes set delays and shares and flush', async () => {
    const set = await fetch(`${sim.url}/_sim/statuses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sentMs: 0, deliveredMs: 0, readShare: 0 }),
    });
    expect(await set.json()).toMatchObject({ delays: { sentMs: 0, deliveredMs: 0, readMs: 40 }, options: { readShare: 0, failShare: 0 } });
    await sendMany(2, '3933433');
    const flushed = await fetch(`${sim.url}/_sim/statuses/flush`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"all":true}' });
    expect(await flushed.json()).toMatchObject({ statuses: { byStatus: { sent: 2, delivered: 2, read: 0 }, queued: 0 } });
    sim.setStatusDelays({ sentMs: 10, deliveredMs: 40 });
  });
});
