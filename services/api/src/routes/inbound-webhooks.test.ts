import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { inboundSigningKey, newId, signInboundBody } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { fixedClock, seedOperator, testDeps } from '@mos/app/testing';
import { createInboundWebhook, promoteInboundWebhook, rotateInboundWebhookSecret, type AppDeps, type Scope } from '@mos/app';
import { upsertWorkspace } from '@mos/db';
import { createApiApp } from '../app';
import { postInbound, seedApprovedTemplate, type SignedPost } from '../testing/inbound-webhooks';

/**
 * POST /api/v1/inbound-webhooks/{slug} over HTTP against a real database: the signature
 * scheme, the 401/404 order, idempotency under concurrency, dry-run and live outcomes, and
 * what a run stores (never the payload's personal data). The clock is fixed so timestamp
 * boundaries are exact. Governor workflows start on a queue no worker polls: nothing is sent.
 */
describe('inbound webhooks over HTTP', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let scope: Scope;
  const clock = fixedClock(new Date());
  const now = () => Math.floor(clock.now().getTime() / 1000);

  const PHONE = '+447700900123';
  const FIRST_NAME = 'Ottoline';
  const ORDER = 'ORD-98765-XYZ';
  const payload = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ customer: { phone: '+44 7700 900123', first_name: FIRST_NAME }, order: { id: ORDER, items: [{ sku: 'SKU-1' }] }, ...extra });
  const mapping = {
    to: 'path:customer.phone',
    'parameters.body.1': 'customer.first_name',
    'parameters.body.2': 'path:order.id',
    externalId: 'path:order.items[0].sku',
  };

  let dry: { slug: string; secret: string; id: string };
  let live: { slug: string; secret: string; id: string };

  async function config(name: string, opts: { live?: boolean; promote?: boolean } = {}) {
    const created = await createInboundWebhook(deps, scope, { name, templateName: 'order_ready', templateLocale: 'en_US', mapping }, 'admin');
    if (opts.promote !== false) await promoteInboundWebhook(deps, scope, { id: created.inboundWebhook.id, live: opts.live ?? false });
    return { slug: created.inboundWebhook.slug, secret: created.secret, id: created.inboundWebhook.id };
  }
  const post = (c: { slug: string; secret: string }, o: SignedPost = {}) => postInbound(api.url, c.slug, now(), { secret: c.secret, body: payload(), ...o });
  const count = async (sql: string, params: unknown[] = []) => Number((await tdb.pool.query(sql, params)).rows[0].n);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { clock, env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    api = await listen(createApiApp(deps));
    const op = await seedOperator(deps, { role: 'owner' });
    await upsertWorkspace(tdb.db, op.workspaceSlug, { phoneNumberId: '106540352242922' });
    scope = { workspaceId: op.workspaceId, actorId: op.memberId, role: 'owner' };
    await seedApprovedTemplate(deps, op.workspaceId, 'order_ready', 2);
    dry = await config('Shop orders');
    live = await config('Shop orders live', { live: true });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  describe('signature', () => {
    it('a valid signature: 200 {accepted, runId, status: dry_run, dryRun: true}; the run is stored', async () => {
      const res = await post(dry);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ accepted: true, runId: expect.stringMatching(/^iwr_/), status: 'dry_run', dryRun: true });
      const run = (await tdb.pool.query(`SELECT status, http_status, signature_scheme FROM inbound_webhook_runs WHERE id = $1`, [res.body.runId])).rows[0];
      expect(run).toEqual({ status: 'dry_run', http_status: 200, signature_scheme: 'v1' });
    });

    it('several v1 entries verify when one of them matches (key rotation on the sender side)', async () => {
      const good = signInboundBody(inboundSigningKey(dry.secret), now(), payload()).split(',')[1]!;
      const other = `v1=${'ab'.repeat(32)}`;
      const res = await post(dry, { signature: `t=${now()},${other},${good},v1=${'cd'.repeat(32)}` });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('dry_run');
    });

    it('timestamps exactly 5 minutes old or ahead verify; one second more is 401', async () => {
      expect((await post(dry, { t: now() - 300 })).status).toBe(200);
      expect((await post(dry, { t: now() + 300 })).status).toBe(200);
      const stale = await post(dry, { t: now() - 301 });
      expect(stale.status).toBe(401);
      expect(stale.body).toMatchObject({ error: 'invalid_signature' });
      expect((await post(dry, { t: now() + 301 })).status).toBe(401);
    });

    it('a wrong key is 401 and a failed run; the re-serialized body is 401 too', async () => {
      const wrong = await post(dry, { secret: 'not-the-secret' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_signature', runId: expect.stringMatching(/^iwr_/) });
      const run = (await tdb.pool.query(`SELECT status, http_status, errors FROM inbound_webhook_runs WHERE id = $1`, [wrong.body.runId])).rows[0];
      expect(run).toMatchObject({ status: 'failed', http_status: 401, errors: [{ code: 'invalid_signature' }] });

      const raw = payload();
      const sig = signInboundBody(inboundSigningKey(dry.secret), now(), raw);
      const reserialized = JSON.stringify(JSON.parse(raw), null, 1);
      expect((await post(dry, { body: reserialized, signature: sig })).status).toBe(401);
    });

    it('missing or malformed headers are 401 without a run', async () => {
      const runsBefore = await count(`SELECT count(*) n FROM inbound_webhook_runs`);
      for (const signature of [
        null,
        '',
        'garbage',
        `v1=${'ab'.repeat(32)}`,
        `t=${now()}`,
        `t=${now()},v1=abc`,
        `t=soon,v1=${'ab'.repeat(32)}`,
        `t=${now()},t=${now()},v1=${'ab'.repeat(32)}`,
      ]) {
        const res = await post(dry, { signature });
        expect(res.status, String(signature)).toBe(401);
        expect(res.body.error).toBe('invalid_signature');
      }
      expect(await count(`SELECT count(*) n FROM inbound_webhook_runs`)).toBe(runsBefore);
    });

    it('a Standard Webhooks signer (webhook-id, webhook-timestamp, webhook-signature) verifies with the standardWebhooksSecret', async () => {
      const created = await createInboundWebhook(deps, scope, { name: 'std', templateName: 'order_ready', templateLocale: 'en_US', mapping }, 'admin');
      await promoteInboundWebhook(deps, scope, { id: created.inboundWebhook.id, live: false });
      const body = payload();
      const msgId = `msg_${newId('request').slice(-12)}`;
      const signature = new Webhook(created.standardWebhooksSecret).sign(msgId, clock.now(), body);
      const std = { 'webhook-id': msgId, 'webhook-timestamp': String(now()), 'webhook-signature': signature };
      const res = await post({ slug: created.inboundWebhook.slug, secret: created.secret }, { signature: null, headers: std });
      expect(res.status).toBe(200);
      // The webhook-id is the idempotency key when no Idempotency-Key is sent.
      const again = await post({ slug: created.inboundWebhook.slug, secret: created.secret }, { signature: null, headers: std });
      expect(again.body).toMatchObject({ status: 'skipped_duplicate', duplicateOfRunId: res.body.runId });
      const tampered = await post(
        { slug: created.inboundWebhook.slug, secret: created.secret },
        { signature: null, headers: { ...std, 'webhook-id': 'msg_other' } },
      );
      expect(tampered.status).toBe(401);
    });

    it('rotating the secret stops the old one at once', async () => {
      const c = await config('rotate me');
      expect((await post(c)).status).toBe(200);
      const rotated = await rotateInboundWebhookSecret(deps, scope, c.id);
      expect((await post(c)).status).toBe(401);
      expect((await post({ slug: c.slug, secret: rotated.secret })).status).toBe(200);
    });
  });

  describe('order of checks', () => {
    it('a missing, malformed or stale signature is 401 whatever the slug', async () => {
      for (const slug of [dry.slug, 'no-such-webhook', 'NOT A SLUG', '%00']) {
        expect((await post({ slug, secret: dry.secret }, { signature: null })).status).toBe(401);
        expect((await post({ slug, secret: dry.secret }, { signature: 'x' })).status).toBe(401);
        expect((await post({ slug, secret: dry.secret }, { t: now() - 3600 })).status).toBe(401);
      }
    });

    it('a well-formed signed request to an unknown or disabled configuration is 404 webhook_not_found_or_disabled', async () => {
      const unknown = await post({ slug: 'no-such-webhook-0123456789', secret: 'whatever' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'webhook_not_found_or_disabled' });
      const disabled = await config('never promoted', { promote: false });
      const res = await post(disabled);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('webhook_not_found_or_disabled');
      expect(await count(`SELECT count(*) n FROM inbound_webhook_runs WHERE inbound_webhook_id = $1`, [disabled.id])).toBe(0);
    });
  });

  describe('idempotency', () => {
    it('20 concurrent identical requests: one dry_run, 19 skipped_duplicate answering the first result', async () => {
      const key = `evt-${newId('request')}`;
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(dry, { headers: { 'idempotency-key': key } })));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const firsts = answers.filter((a) => a.body.status === 'dry_run');
      expect(firsts).toHaveLength(1);
      const dups = answers.filter((a) => a.body.status === 'skipped_duplicate');
      expect(dups).toHaveLength(19);
      for (const d of dups) expect(d.body).toMatchObject({ accepted: true, dryRun: true, duplicateOfRunId: firsts[0]!.body.runId });
      const rows = (await tdb.pool.query(`SELECT status, reserves_key FROM inbound_webhook_runs WHERE idempotency_key = $1`, [key])).rows;
      expect(rows).toHaveLength(20);
      expect(rows.filter((r) => r.reserves_key)).toHaveLength(1);
    });

    it('20 concurrent identical live requests queue exactly one message', async () => {
      const key = `evt-${newId('request')}`;
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(live, { headers: { 'idempotency-key': key } })));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const queued = answers.filter((a) => a.body.status === 'queued');
      expect(queued).toHaveLength(1);
      const messageId = queued[0]!.body.messageId as string;
      expect(messageId).toMatch(/^msg_/);
      for (const a of answers.filter((x) => x.body.status === 'skipped_duplicate')) expect(a.body).toMatchObject({ messageId, dryRun: false });
      expect(await count(`SELECT count(*) n FROM outbound_messages WHERE id = $1`, [messageId])).toBe(1);
      const runs = await count(`SELECT count(*) n FROM inbound_webhook_runs WHERE idempotency_key = $1 AND message_id = $2`, [key, messageId]);
      expect(runs).toBe(20);
    });

    it('an invalid signature reserves nothing: the same key then processes normally', async () => {
      const key = `evt-${newId('request')}`;
      expect((await post(dry, { secret: 'wrong', headers: { 'idempotency-key': key } })).status).toBe(401);
      const ok = await post(dry, { headers: { 'idempotency-key': key } });
      expect(ok.body.status).toBe('dry_run');
    });

    it('a failed mapping leaves the key free, so a corrected retry processes', async () => {
      const key = `evt-${newId('request')}`;
      const bad = await post(dry, { body: JSON.stringify({ customer: { first_name: 'x' }, order: { id: 1 } }), headers: { 'idempotency-key': key } });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ error: 'mapping_failed', issues: expect.arrayContaining([expect.objectContaining({ target: 'to' })]) });
      const good = await post(dry, { headers: { 'idempotency-key': key } });
      expect(good.body.status).toBe('dry_run');
    });
  });

  describe('outcomes', () => {
    it('dry-run never queues a send', async () => {
      const before = await count(`SELECT count(*) n FROM outbound_messages`);
      for (let i = 0; i < 3; i++) expect((await post(dry)).body.status).toBe('dry_run');
      expect(await count(`SELECT count(*) n FROM outbound_messages`)).toBe(before);
    });

    it('live: status queued with the message id; the message is the mapped template to the normalized number', async () => {
      const res = await post(live);
      expect(res.body).toMatchObject({ accepted: true, status: 'queued', dryRun: false, messageId: expect.stringMatching(/^msg_/) });
      const msg = (await tdb.pool.query(`SELECT to_phone, content, status FROM outbound_messages WHERE id = $1`, [res.body.messageId])).rows[0];
      expect(msg.to_phone).toBe(PHONE);
      expect(msg.content).toEqual({ kind: 'template', template: { name: 'order_ready', language: 'en_US', parameters: { body: [FIRST_NAME, ORDER] } } });
      expect(msg.status).toBe('queued');
    });

    it('a live send the send path refuses (unsubscribed contact) is a failed run with the send path’s code', async () => {
      await tdb.pool.query(`UPDATE contacts SET subscriber_status = 'unsubscribed' WHERE phone_number = $1`, [PHONE]);
      try {
        const res = await post(live);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error: 'contact_unsubscribed', runId: expect.any(String) });
        const run = (await tdb.pool.query(`SELECT status, message_id FROM inbound_webhook_runs WHERE id = $1`, [res.body.runId])).rows[0];
        expect(run).toEqual({ status: 'failed', message_id: null });
      } finally {
        await tdb.pool.query(`UPDATE contacts SET subscriber_status = 'subscribed' WHERE phone_number = $1`, [PHONE]);
      }
    });

    it('hostile bodies: not JSON, not UTF-8, a scalar, NUL in a value, too large', async () => {
      expect((await post(dry, { body: '{"customer":' })).body).toMatchObject({ error: 'invalid_payload' });
      expect((await post(dry, { body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) })).body).toMatchObject({ error: 'invalid_payload' });
      expect((await post(dry, { body: '42' })).status).toBe(400);
      const nul = await post(dry, { body: payload({ customer: { phone: PHONE, first_name: 'a\u0000b' } }) });
      expect(nul.status).toBe(422);
      const big = await post(dry, { body: JSON.stringify({ pad: 'x'.repeat(deps.env.INBOUND_WEBHOOK_BODY_LIMIT_BYTES) }) });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ error: 'payload_too_large' });
    });

    it('a wrong content type or charset is 415 and a failed run; a deeply nested body is stored as a bounded shape', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
        const res = await post(dry, { headers: { 'content-type': type } });
        expect(res.status, type).toBe(415);
        expect(res.body.error).toBe('unsupported_media_type');
      }
      const deep = `${payload().slice(0, -1)},"deep":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
      const res = await post(dry, { body: deep });
      expect(res.status).toBe(200);
      const shape = (await tdb.pool.query(`SELECT payload_shape FROM inbound_webhook_runs WHERE id = $1`, [res.body.runId])).rows[0].payload_shape;
      expect(JSON.stringify(shape).length).toBeLessThan(2_000);
      expect((await post(dry)).status).toBe(200);
    });

    it('a __proto__ key in the payload pollutes nothing and maps like any other key', async () => {
      const body = `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},${payload().slice(1)}`;
      const res = await post(dry, { body });
      expect(res.status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it('a store failure after verification answers 503 (retry), leaves the run `verified` and holds no key', async () => {
    // A real failure inside the outcome transaction: the database refuses the dry_run outcome.
    await tdb.pool.query(`ALTER TABLE inbound_webhook_runs ADD CONSTRAINT refuse_dry_run CHECK (status <> 'dry_run') NOT VALID`);
    const key = `evt-${newId('request')}`;
    try {
      const res = await post(dry, { headers: { 'idempotency-key': key } });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'service_unavailable' });
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await tdb.pool.query(`ALTER TABLE inbound_webhook_runs DROP CONSTRAINT refuse_dry_run`);
    }
    const rows = (await tdb.pool.query(`SELECT status, reserves_key FROM inbound_webhook_runs WHERE idempotency_key = $1`, [key])).rows;
    expect(rows).toEqual([{ status: 'verified', reserves_key: false }]);
    expect((await post(dry, { headers: { 'idempotency-key': key } })).body.status).toBe('dry_run');
  });

  it('runs store no phone number, no variable value, no secret and no signature', async () => {
    const rows = (await tdb.pool.query(`SELECT * FROM inbound_webhook_runs`)).rows;
    expect(rows.length).toBeGreaterThan(50);
    const stored = JSON.stringify(rows);
    for (const needle of ['7700900123', '7700 900123', FIRST_NAME, ORDER, 'SKU-1', dry.secret, live.secret, inboundSigningKey(dry.secret)]) {
      expect(stored, needle).not.toContain(needle);
    }
    // No HMAC hex of any request survives either.
    expect(stored).not.toMatch(/v1=[0-9a-f]{64}/);
    const sample = rows.find((r) => r.status === 'dry_run')!;
    expect(sample.headers['x-service-signature']).toMatch(/^t=\d+,v1=\[redacted\]/);
    expect(sample.payload_shape).toMatchObject({ type: 'object' });
    expect(sample.mapped_request).toMatchObject({ to: { present: true, valid: true }, templateName: 'order_ready' });
  });
});
