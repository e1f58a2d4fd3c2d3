import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from './index';
import { webhookReceiver } from './testing';

const TOKEN = 'sim-token-faults';
const SECRET = 'whsec-faults';
const PHONE = '106540352242922';

describe('simulator fault injection', () => {
  let sim: RunningSimulator;
  let rx: Awaited<ReturnType<typeof webhookReceiver>>;
  let seq = 0;

  beforeAll(async () => {
    rx = await webhookReceiver(SECRET);
    sim = await startSimulator({
      accessToken: TOKEN,
      phoneNumberId: PHONE,
      url: rx.url,
      signingSecret: SECRET,
      statusDelaysMs: { sentMs: 0, deliveredMs: 0, readMs: 0 },
      readShare: 0,
      seed: 1234,
    });
    sim.seedApprovedTemplate({ name: 'ping', language: 'en', components: [{ type: 'BODY', text: 'Your appointment is tomorrow.' }] });
  });
  afterAll(async () => {
    await sim?.close();
    await rx?.close();
  });
  beforeEach(() => {
    sim.reset();
    rx.got.splice(0);
  });

  const send = (timeoutMs?: number) =>
    fetch(`${sim.url}/v23.0/${PHONE}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: `3934${String(++seq).padStart(8, '0')}`,
        type: 'template',
        biz_opaque_callback_data: `cb-${seq}`,
        template: { name: 'ping', language: { code: 'en' } },
      }),
      ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
  const outcome = (p: Promise<Response>) =>
    p.then(
      (r) => r.status,
      (e: Error) => e.name,
    );

  it('serverErrorShare answers 500 code 1 / 503 code 2 with the generic message and accepts nothing', async () => {
    const set = await fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"serverErrorShare":1}' });
    expect(await set.json()).toMatchObject({ faults: { serverErrorShare: 1, timeoutShare: 0 } });
    const bodies = await Promise.all(Array.from({ length: 12 }, () => send().then(async (r) => ({ status: r.status, body: (await r.json()) as any }))));
    for (const { status, body } of bodies) {
      expect([500, 503]).toContain(status);
      expect(body.error).toMatchObject({
        code: status === 503 ? 2 : 1,
        message: 'An unexpected error has occurred. Please retry your request later.',
        is_transient: true,
      });
    }
    expect(new Set(bodies.map((b) => b.status))).toEqual(new Set([500, 503]));
    const stats = sim.stats();
    expect(stats.accepted).toBe(0);
    expect((stats.rejectionsByCode['1'] ?? 0) + (stats.rejectionsByCode['2'] ?? 0)).toBe(12);
    expect(sim.messages()).toEqual([]);
  });

  it('shares are reproducible: the same seed gives the same answers after reset', async () => {
    const run = async () => {
      sim.setFaults({ serverErrorShare: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await send()).status);
      return statuses;
    };
    const first = await run();
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(2);
    expect(first.filter((s) => s !== 200).length).toBeGreaterThan(2);
    sim.reset();
    expect(await run()).toEqual(first);
  });

  it('before_accept timeouts hang without accepting; the connection is dropped after hangMs', async () => {
    sim.setFaults({ timeoutShare: 1, timeoutMode: 'before_accept', hangMs: 300 });
    const started = Date.now();
    expect(await outcome(send(100))).toBe('TimeoutError');
    expect(await outcome(send())).toBe('TypeError'); // no timeout on the client: the socket closes unanswered
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(sim.stats()).toMatchObject({ accepted: 0, timeouts: { beforeAccept: 2, afterAccept: 0 }, hangingResponses: 0 });
    await sim.flushStatuses({ all: true });
    expect(rx.got).toHaveLength(0);
  });

  it('after_accept timeouts accept and count the message and its statuses flow, only the answer is lost', async () => {
    const set = await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeoutShare: 1, timeoutMode: 'after_accept', hangMs: 5000 }),
    });
    expect(set.status).toBe(200);
    expect(await outcome(send(150))).toBe('TimeoutError');
    const [m] = sim.messages();
    expect(m).toMatchObject({ responseLost: true, callbackData: `cb-${seq}` });
    expect(sim.stats()).toMatchObject({ accepted: 1, timeouts: { beforeAccept: 0, afterAccept: 1 }, hangingResponses: 1 });
    await sim.flushStatuses({ all: true });
    expect(rx.statuses().map((s) => [s.id, s.status, s.biz_opaque_callback_data])).toEqual([
      [m!.id, 'sent', `cb-${seq}`],
      [m!.id, 'delivered', `cb-${seq}`],
    ]);
    // A retry of the same send (same callback data) is accepted again and shows as a duplicate.
    sim.setFaults({ timeoutShare: 0 });
    const retry = await fetch(`${sim.url}/v23.0/${PHONE}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: '393499999999',
        type: 'template',
        biz_opaque_callback_data: `cb-${seq}`,
        template: { name: 'ping', language: { code: 'en' } },
      }),
    });
    expect(retry.status).toBe(200);
    expect(sim.stats()).toMatchObject({ accepted: 2, duplicates: 1 });
    sim.reset();
    expect(sim.stats().hangingResponses).toBe(0);
  });

  it('failNext over the control route fails the next calls, then the faults reset', async () => {
    const res = await fetch(`${sim.url}/_sim/fail-next`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":503,"count":2}' });
    expect(res.status).toBe(200);
    expect([await outcome(send()), await outcome(send()), await outcome(send())]).toEqual([503, 503, 200]);
    sim.failNext(500, 3);
    sim.setFaults({ serverErrorShare: 1 });
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await outcome(send())).toBe(200);
    expect((await (await fetch(`${sim.url}/_sim/faults`)).json()) as unknown).toEqual({
      faults: { serverErrorShare: 0, timeoutShare: 0, timeoutMode: 'before_accept', hangMs: 30000 },
    });
  });

  it('failNext with a limit code answers that provider error (400, its code) and accepts nothing, then sends go through', async () => {
    for (const code of [130429, 131056] as const) {
      const res = await fetch(`${sim.url}/_sim/fail-next`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, count: 2 }),
      });
      expect(res.status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const r = await send();
        expect(r.status).toBe(400);
        expect(((await r.json()) as { error: { code: number } }).error.code).toBe(code);
      }
      expect(await outcome(send())).toBe(200);
    }
    expect(sim.stats()).toMatchObject({ accepted: 2, rejected: 4, rejectionsByCode: { '130429': 2, '131056': 2 } });
  });

  it('refuses invalid control bodies with 400', async () => {
    for (const [path, body] of [
      ['faults', { serverErrorShare: 2 }],
      ['faults', { timeoutMode: 'sometimes' }],
      ['fail-next', { code: 131000 }],
      ['throughput', { phoneNumberId: PHONE }],
      ['windows', { from: '1', openedAt: 'yesterday' }],
      ['inbound', {}],
      ['templates/approved', { name: 'x', language: 'en', components: [{ type: 'BODY', colour: 'red' }] }],
    ] as const) {
      const res = await fetch(`${sim.url}/_sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(((await res.json()) as { error: string }).error).toEqual(expect.any(String));
    }
  });
});
