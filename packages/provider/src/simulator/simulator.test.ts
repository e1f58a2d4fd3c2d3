import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STARTER_PACK, verifyProviderSignature } from '@mos/core';
import { createProviderClient } from '../client';
import { ProviderError } from '../errors';
import { startSimulator, type RunningSimulator } from './index';

const TOKEN = 'sim-token-webhooks';
const SECRET = 'whsec-test-secret';
const WABA = '102290129340398';
const auth = { wabaId: WABA, accessToken: TOKEN };
// The provider's own example, copied into the repo by the webhook pipeline.
const fixture = JSON.parse(
  readFileSync(new URL('../../../../docs/provider-reference/webhooks/message_template_status_update_approved.json', import.meta.url), 'utf8'),
);

interface Received {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/** A stand-in for our ingress: records the exact bytes and headers it was sent. */
async function receiver(): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/messaging`,
    got,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const bodyOf = (text: string, ...examples: string[]) => ({ type: 'BODY', text, ...(examples.length ? { example: { body_text: [examples] } } : {}) });

describe('provider simulator', () => {
  let sim: RunningSimulator;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let client: ReturnType<typeof createProviderClient>;

  beforeAll(async () => {
    rx = await receiver();
    sim = await startSimulator({ accessToken: TOKEN, wabaId: WABA, url: rx.url, signingSecret: SECRET });
    client = createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0' });
  });
  afterAll(async () => {
    await sim?.close();
    await rx?.close();
  });
  beforeEach(() => void rx.got.splice(0));

  const create = (name: string) =>
    client.createTemplate(auth, {
      name,
      language: 'en_US',
      category: 'UTILITY',
      components: [bodyOf('Hi {{1}}, your appointment is confirmed for tomorrow morning.', 'Ada')],
    });

  it('approving delivers a signed message_template_status_update in the fixture shape', async () => {
    const { id } = await create('appointment_confirmed');
    const delivered = await sim.review(id, 'APPROVED');
    expect(delivered).toMatchObject({ status: 200, deliveryId: expect.any(String) });
    expect(rx.got).toHaveLength(1);
    const { raw, headers } = rx.got[0]!;
    expect(verifyProviderSignature({ rawBody: raw, header: headers['x-hub-signature-256'] as string, secret: SECRET })).toEqual({ ok: true });
    expect(headers['x-provider-delivery-id']).toBe(delivered!.deliveryId);
    const envelope = JSON.parse(raw.toString('utf8'));
    // Same keys as the provider's published example (fixtures/provider-docs README), with this template's values.
    expect(Object.keys(envelope).sort()).toEqual(Object.keys(fixture).sort());
    expect(Object.keys(envelope.entry[0]).sort()).toEqual(Object.keys(fixture.entry[0]).sort());
    expect(Object.keys(envelope.entry[0].changes[0].value).sort()).toEqual(Object.keys(fixture.entry[0].changes[0].value).sort());
    expect(envelope).toMatchObject({
      object: fixture.object,
      entry: [
        {
          id: WABA,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'APPROVED',
                message_template_id: Number(id),
                message_template_name: 'appointment_confirmed',
                message_template_language: 'en_US',
                message_template_category: 'UTILITY',
                reason: 'NONE',
              },
            },
          ],
        },
      ],
    });
    expect(sim.templates().find((t) => t.id === id)?.status).toBe('APPROVED');
  });

  it('the admin route rejects with a reason; listing shows it; a second review is 409; unknown id 404', async () => {
    const { id } = await create('reject_me');
    const res = await fetch(`${sim.url}/_sim/templates/${id}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'REJECTED', reason: 'INCORRECT_CATEGORY' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ template: { id, status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' }, webhook: { status: 200 } });
    expect(JSON.parse(rx.got[0]!.raw.toString()).entry[0].changes[0].value).toMatchObject({ event: 'REJECTED', reason: 'INCORRECT_CATEGORY' });
    const listed = await client.listAllTemplates(auth);
    expect(listed.find((t) => t.id === id)).toMatchObject({ status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' });
    const again = await fetch(`${sim.url}/_sim/templates/${id}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'APPROVED' }),
    });
    expect(again.status).toBe(409);
    const missing = await fetch(`${sim.url}/_sim/templates/123/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'APPROVED' }),
    });
    expect(missing.status).toBe(404);
    const badEvent = await fetch(`${sim.url}/_sim/templates/${id}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'MAYBE' }),
    });
    expect(badEvent.status).toBe(400);
  });

  it('without a signing secret the webhook is sent unsigned; without a URL nothing is sent', async () => {
    sim.setWebhook({ signingSecret: undefined });
    const a = await create('unsigned_one');
    await sim.review(a.id, 'APPROVED');
    expect(rx.got[0]!.headers['x-hub-signature-256']).toBeUndefined();
    sim.setWebhook({ url: undefined });
    const b = await create('nowhere_one');
    expect(await sim.review(b.id, 'APPROVED')).toBeNull();
    expect(rx.got).toHaveLength(1);
    sim.setWebhook({ url: rx.url, signingSecret: SECRET });
  });

  it('requires the bearer token on every provider route', async () => {
    for (const [method, path] of [
      ['GET', `/v23.0/${WABA}/message_templates`],
      ['POST', `/v23.0/${WABA}/message_templates`],
      ['POST', '/v23.0/123/messages'],
    ] as const) {
      const none = await fetch(`${sim.url}${path}`, { method });
      expect(none.status).toBe(400);
      expect(await none.json()).toMatchObject({ error: { code: 104, type: 'OAuthException' } });
      const wrong = await fetch(`${sim.url}${path}`, { method, headers: { authorization: 'Bearer wrong' } });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ error: { code: 190 } });
    }
  });

  it("accepts the provider's lower-case spellings and stores them upper-cased", async () => {
    const res = await client.createTemplate(auth, {
      name: 'lower_case',
      language: 'it',
      category: 'utility',
      components: [
        { type: 'body', text: 'Ciao, il tuo ordine è stato spedito e arriverà presto.' },
        { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Grazie' }] },
      ],
    });
    const stored = sim.templates().find((t) => t.id === res.id)!;
    expect(stored).toMatchObject({ category: 'UTILITY', components: [{ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY' }] }] });
  });

  it('enforces the template rules through the shared validator, every issue in details', async () => {
    const err: unknown = await client
      .createTemplate(auth, { name: 'Bad Name', language: 'en-US', category: 'UTILITY', components: [bodyOf('{{1}} {{3}}')] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    const pe = err as ProviderError;
    expect(pe).toMatchObject({ status: 400, error: { code: 100, error_user_msg: expect.any(String) } });
    const details = typeof pe.error?.error_data === 'object' ? pe.error.error_data.details : '';
    expect(details?.split('; ').length).toBeGreaterThan(3);
  });

  it('accepts all 13 starter-pack templates', async () => {
    expect(STARTER_PACK).toHaveLength(13);
    for (const t of STARTER_PACK) {
      const res = await client.createTemplate(auth, {
        name: t.name,
        language: t.language,
        category: t.category,
        parameter_format: t.parameterFormat,
        components: t.components,
      });
      expect(res.status).toBe('PENDING');
    }
  });

  it('unparseable JSON answers in the Graph error shape', async () => {
    const res = await fetch(`${sim.url}/v23.0/${WABA}/message_templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 100, fbtrace_id: expect.any(String) } });
  });

  it('unknown paths answer in the Graph error shape', async () => {
    const res = await fetch(`${sim.url}/nope`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 2500 } });
  });
});

describe('simulator main.ts (standalone, as infra/up.sh runs it)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => void child?.kill('SIGTERM'));

  it('starts from SIM_* env and serves the API', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    child = spawn(process.execPath, ['--import', 'tsx', 'packages/provider/src/simulator/main.ts'], {
      env: {
        ...process.env,
        SIM_PORT: String(port),
        SIM_ACCESS_TOKEN: 'main-token',
        SIM_WABA_ID: WABA,
        SIM_PHONE_NUMBER_ID: '42',
        SIM_SIGNING_SECRET: 'x',
        SIM_WEBHOOK_URL: 'http://127.0.0.1:1/webhooks/messaging',
        SIM_THROUGHPUT_PER_SECOND: '1000',
        SIM_PAIR_SPACING_MS: '100',
        SIM_READ_SHARE: '0.25',
        SIM_FAIL_SHARE: '',
        SIM_STATUS_DELAYS_MS: '5, 10,20',
        SIM_SEED: '7',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => resolve(d.toString()));
      child!.once('exit', (code) => reject(new Error(`exited ${code}`)));
      setTimeout(() => reject(new Error('simulator did not start')), 20_000);
    });
    expect(JSON.parse(line)).toMatchObject({ msg: 'provider simulator listening', url: `http://127.0.0.1:${port}`, seed: 7 });
    expect(line).not.toContain('main-token');
    const client = createProviderClient({ baseUrl: `http://127.0.0.1:${port}`, apiVersion: 'v23.0' });
    await expect(client.listTemplates({ wabaId: WABA, accessToken: 'main-token' })).resolves.toMatchObject({ data: [] });
    const stats = await (await fetch(`http://127.0.0.1:${port}/_sim/stats?phoneNumberId=42`)).json();
    expect(stats).toMatchObject({ seed: 7, phoneNumbers: { '42': { throughputPerSecond: 1000 } } });
    const statuses = await fetch(`http://127.0.0.1:${port}/_sim/statuses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await statuses.json()).toEqual({
      delays: { sentMs: 5, deliveredMs: 10, readMs: 20 },
      options: { enabled: true, readShare: 0.25, failShare: 0, failCodes: [131026] },
    });
  }, 30_000);

  it('refuses to start without SIM_ACCESS_TOKEN or with a malformed knob', async () => {
    const run = async (env: Record<string, string>) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'packages/provider/src/simulator/main.ts'], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((r) => p.once('exit', r));
      return { code, err };
    };
    const [noToken, badDelays] = await Promise.all([
      run({ SIM_ACCESS_TOKEN: '' }),
      run({ SIM_ACCESS_TOKEN: 'x', SIM_STATUS_DELAYS_MS: '100,300', SIM_READ_SHARE: '2' }),
    ]);
    expect(noToken.code).toBe(2);
    expect(noToken.err).toContain('SIM_ACCESS_TOKEN');
    expect(badDelays.code).toBe(2);
    expect(badDelays.err).toContain('SIM_STATUS_DELAYS_MS');
    expect(badDelays.err).toContain('SIM_READ_SHARE');
  }, 30_000);
});
