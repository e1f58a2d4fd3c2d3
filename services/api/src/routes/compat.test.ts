import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { jsonRequest, listen, rawRequest } from '@mos/http/testing';
import { fixedClock, seedCompatMapping, seedJourney, testDeps } from '@mos/app/testing';
import { listWorkspaceWebhooks, replayWebhook, revokeWorkspaceApiKey, type AppDeps } from '@mos/app';
import { setProviderIngressWorkspace } from '@mos/db';
import type { JourneyStep } from '@mos/core';
import { createApiApp } from '../app';
import { seedApiKey, type SeededKey } from './v1/testing';

/**
 * The legacy-compatible paths over HTTP against a real database: authentication, each path's
 * payload variants, the legacy answers field by field, what is stored (event + outbox job, no
 * credentials), duplicates answering the first call's ids, and workspace isolation of the
 * mappings. The pipeline's application of these calls is services/worker/src/journeys.test.ts.
 */
describe('compat paths over HTTP', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededKey;
  let b: SeededKey;
  let journeyA: string;
  let pausedJourney: string;
  const clock = fixedClock(new Date('2026-11-23T10:00:00Z'));
  const PARTNER_SECRET = 'partner-secret-value-123';
  const steps: JourneyStep[] = [{ id: 'hello', type: 'send_template', template: { name: 'welcome', language: 'en_US' } }];

  const post = (path: string, body: unknown, o: { key?: string | null; method?: string; headers?: Record<string, string> } = {}) =>
    jsonRequest(`${api.url}${path}`, {
      method: o.method ?? 'POST',
      body,
      headers: { ...(o.key === null ? {} : { 'x-api-key': o.key ?? a.key }), ...o.headers },
    });
  const rows = async (sql: string, params: unknown[] = []) => (await tdb.pool.query(sql, params)).rows;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { clock, env: { PARTNER_WEBHOOK_SECRET: PARTNER_SECRET } });
    api = await listen(createApiApp(deps));
    a = await seedApiKey(deps, { workspace: 'compat-a' });
    b = await seedApiKey(deps, { workspace: 'compat-b' });
    await setProviderIngressWorkspace(tdb.db, a.workspaceId);
    journeyA = await seedJourney(tdb.db, a.workspaceId, { steps });
    pausedJourney = await seedJourney(tdb.db, a.workspaceId, { steps, status: 'paused' });
    await seedCompatMapping(tdb.db, a.workspaceId, journeyA, { organizationId: 'org-1', flowId: 'flow-1' });
    await seedCompatMapping(tdb.db, a.workspaceId, journeyA, { organizationId: 'org-1', flowId: 'flow-1', triggerId: 'trg-9' });
    await seedCompatMapping(tdb.db, a.workspaceId, journeyA, { legacyPath: 'welcome/new-customer' });
    await seedCompatMapping(tdb.db, a.workspaceId, pausedJourney, { legacyPath: 'paused-flow' });
    const journeyB = await seedJourney(tdb.db, b.workspaceId, { steps });
    await seedCompatMapping(tdb.db, b.workspaceId, journeyB, { organizationId: 'org-b', flowId: 'flow-b' });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  describe('authentication', () => {
    const paths: Array<[string, string]> = [
      ['POST', '/compat/contact'],
      ['PUT', '/api/v1beta/contact/'],
      ['POST', '/compat/journey-trigger/welcome/new-customer'],
      ['POST', '/webhooks/v0/rest-trigger/organization/org-1/flow/flow-1/trigger/'],
      ['POST', '/webhooks/v0/rest-trigger/organization/org-1/flow/flow-1/trigger/trg-9/'],
      ['POST', '/api/v0/webhooks/incoming/partner/custom_external_event'],
    ];

    it.each(paths)('%s %s without credentials: 401 {status: "error", message} and nothing stored', async (method, path) => {
      const before = await rows(`SELECT count(*)::int AS n FROM webhook_events`);
      const res = await post(path, { phone: '+447700900001', event_name: 'signed_up' }, { key: null, method });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), requestId: expect.any(String) });
      expect(await rows(`SELECT count(*)::int AS n FROM webhook_events`)).toEqual(before);
    });

    it.each(paths)('%s %s with an unknown or revoked key: 401', async (method, path) => {
      expect((await post(path, { phone: '+447700900001' }, { key: 'mos_live_not-a-key', method })).status).toBe(401);
      const revoked = await seedApiKey(deps, { workspace: `compat-revoked-${path.length}-${method}` });
      await revokeWorkspaceApiKey(deps, { workspaceId: revoked.workspaceId, actorId: revoked.op.memberId, role: 'owner' }, revoked.keyId);
      expect((await post(path, { phone: '+447700900001' }, { key: revoked.key, method })).status).toBe(401);
    });

    it('the partner secret authenticates the partner path only, for the ingress workspace', async () => {
      const ok = await post(
        `/api/v0/webhooks/incoming/partner/custom_external_event?secret=${PARTNER_SECRET}`,
        { event_name: 'signed_up', phone: '+447700900002' },
        { key: null },
      );
      expect(ok.status).toBe(200);
      const [evt] = await rows(`SELECT workspace_id, query FROM webhook_events WHERE id = $1`, [ok.body.webhookEventId]);
      expect(evt.workspace_id).toBe(a.workspaceId);
      // The secret itself is never stored.
      expect(JSON.stringify(evt.query)).not.toContain(PARTNER_SECRET);
      const contact = await post(`/compat/contact?secret=${PARTNER_SECRET}`, { phone: '+447700900002' }, { key: null });
      expect(contact.status).toBe(401);
    });

    it('a wrong secret is 401 even beside a valid API key; a repeated ?secret= is 401', async () => {
      const path = '/api/v0/webhooks/incoming/partner/custom_external_event';
      expect((await post(`${path}?secret=wrong`, { event_name: 'x', phone: '+447700900002' }, { key: null })).status).toBe(401);
      expect((await post(`${path}?secret=wrong`, { event_name: 'x', phone: '+447700900002' })).status).toBe(401);
      expect((await post(`${path}?secret=${PARTNER_SECRET}&secret=${PARTNER_SECRET}`, { event_name: 'x', phone: '+447700900002' }, { key: null })).status).toBe(
        401,
      );
      // The API key alone is enough: the secret guards callers without one.
      expect((await post(path, { event_name: 'x', phone: '+447700900002' })).status).toBe(200);
    });
  });

  describe('contact upsert', () => {
    it('POST /compat/contact, flattened: {status, message, contactId, webhookEventId, outboxJobId}; event and job stored without the key', async () => {
      const res = await post('/compat/contact', {
        phone_number: '+44 7700 900100',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        external_reference_id: 'crm-100',
        source_type: 'hubspot',
        person_properties: { plan: 'gold', seats: 3 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Contact update queued',
        contactId: expect.stringMatching(/^ctr_/),
        webhookEventId: expect.stringMatching(/^evt_/),
        outboxJobId: expect.stringMatching(/^job_/),
        requestId: expect.any(String),
      });
      const [evt] = await rows(`SELECT source, topic, normalization_status, signature_valid, headers, summary FROM webhook_events WHERE id = $1`, [
        res.body.webhookEventId,
      ]);
      expect(evt).toMatchObject({ source: 'compat', topic: 'contact_upsert', normalization_status: 'pending', signature_valid: true });
      expect(evt.summary).toMatchObject({
        compat: 'contact_upsert',
        contactId: res.body.contactId,
        route: '/compat/contact',
        rootEventId: res.body.webhookEventId,
      });
      expect(JSON.stringify(evt.headers)).not.toContain(a.key);
      expect(evt.headers['x-api-key']).toBeUndefined();
      const [job] = await rows(`SELECT job_type, status, payload FROM outbox_jobs WHERE id = $1`, [res.body.outboxJobId]);
      expect(job).toEqual({ job_type: 'process_webhook_event', status: 'pending', payload: { webhookEventId: res.body.webhookEventId } });
      const [contact] = await rows(`SELECT phone_number, workspace_id FROM contacts WHERE id = $1`, [res.body.contactId]);
      expect(contact).toEqual({ phone_number: '+447700900100', workspace_id: a.workspaceId });
    });

    it('PUT /api/v1beta/contact/, nested, finds the same contact by external_reference_id', async () => {
      const res = await post('/api/v1beta/contact/', { contact: { external_reference_id: 'crm-100', name: 'Ada L.' } }, { method: 'PUT' });
      expect(res.status).toBe(200);
      const first = await rows(`SELECT id FROM contacts WHERE phone_number = '+447700900100'`);
      expect(res.body).toMatchObject({ status: 'success', contactId: first[0].id });
    });

    it('accepts every documented phone field name, and digits without a plus', async () => {
      for (const [field, value, expected] of [
        ['phone', '+447700900201', '+447700900201'],
        ['phoneNumber', '447700900202', '+447700900202'],
        ['to', '00447700900203', '+447700900203'],
        ['msisdn', 447700900204, '+447700900204'],
      ] as const) {
        const res = await post('/compat/contact', { [field]: value });
        expect(res.status, field).toBe(200);
        const [c] = await rows(`SELECT phone_number FROM contacts WHERE id = $1`, [res.body.contactId]);
        expect(c.phone_number).toBe(expected);
      }
    });

    it('refuses what it cannot key: 400 with no phone and no reference, 404 for an unknown reference alone, 409 on conflicting keys', async () => {
      const none = await post('/compat/contact', { first_name: 'Nobody' });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ status: 'error', message: expect.stringContaining('phone') });
      const unknown = await post('/compat/contact', { external_reference_id: 'crm-unknown' });
      expect(unknown.status).toBe(404);
      await post('/compat/contact', { phone: '+447700900300', external_reference_id: 'crm-300' });
      await post('/compat/contact', { phone: '+447700900301', external_reference_id: 'crm-301' });
      const conflict = await post('/compat/contact', { phone: '+447700900300', external_reference_id: 'crm-301' });
      expect(conflict.status).toBe(409);
      expect(conflict.body.status).toBe('error');
      const moved = await post('/compat/contact', { phone: '+447700900399', external_reference_id: 'crm-301' });
      expect(moved.status).toBe(409);
      const bad = await post('/compat/contact', { phone: 'call me maybe' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('phone is not a phone number in international format');
    });

    it('an Idempotency-Key repeat answers the first ids and stores a duplicate with no job', async () => {
      const headers = { 'idempotency-key': 'contact-upsert-1' };
      const first = await post('/compat/contact', { phone: '+447700900400' }, { headers });
      const again = await post('/compat/contact', { phone: '+447700900400' }, { headers });
      expect(again.body).toMatchObject({
        status: 'success',
        message: 'Duplicate contact update: already queued',
        webhookEventId: first.body.webhookEventId,
        outboxJobId: first.body.outboxJobId,
      });
      const dup = await rows(`SELECT normalization_status FROM webhook_events WHERE duplicate_of_id = $1`, [first.body.webhookEventId]);
      expect(dup).toEqual([{ normalization_status: 'duplicate' }]);
    });

    it('identical contact updates without a key are each queued (A, B, A must end at A)', async () => {
      const one = await post('/compat/contact', { phone: '+447700900500', name: 'A' });
      const two = await post('/compat/contact', { phone: '+447700900500', name: 'A' });
      expect(two.body.outboxJobId).not.toBe(one.body.outboxJobId);
    });
  });

  describe('journey triggers', () => {
    it('POST /compat/journey-trigger/{legacyPath}: {status, message, triggerEventId, outboxJobId}; personalization kept in the stored body', async () => {
      const res = await post('/compat/journey-trigger/welcome/new-customer', { phone: '+447700900600', first_name: 'Grace', coupon: 'WELCOME10' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'success',
        message: 'Journey trigger queued',
        triggerEventId: expect.stringMatching(/^evt_/),
        outboxJobId: expect.stringMatching(/^job_/),
        requestId: expect.any(String),
      });
      const [evt] = await rows(`SELECT topic, summary, convert_from(raw_body, 'UTF8') AS body FROM webhook_events WHERE id = $1`, [res.body.triggerEventId]);
      expect(evt.topic).toBe('journey_trigger');
      expect(evt.summary).toMatchObject({ compat: 'journey_trigger', journeyId: journeyA, route: '/compat/journey-trigger/:legacyPath' });
      expect(JSON.parse(evt.body)).toEqual({ phone: '+447700900600', first_name: 'Grace', coupon: 'WELCOME10' });
    });

    it('both rest-trigger paths resolve through their mappings (a trigger without its own mapping uses the flow mapping)', async () => {
      for (const path of [
        '/webhooks/v0/rest-trigger/organization/org-1/flow/flow-1/trigger/',
        '/webhooks/v0/rest-trigger/organization/org-1/flow/flow-1/trigger/trg-9/',
        '/webhooks/v0/rest-trigger/organization/org-1/flow/flow-1/trigger/trg-other/',
      ]) {
        const res = await post(path, { phoneNumber: '+447700900700', order: path.length });
        expect(res.status, path).toBe(200);
        expect(res.body).toMatchObject({ status: 'success', triggerEventId: expect.stringMatching(/^evt_/) });
      }
    });

    it('a trigger posted twice runs once: the repeat answers the first ids (same body; or the same Idempotency-Key)', async () => {
      const body = { msisdn: '+447700900800', plan: 'pro' };
      const [one, two] = await Promise.all([
        post('/compat/journey-trigger/welcome/new-customer', body),
        post('/compat/journey-trigger/welcome/new-customer', body),
      ]);
      expect(two.body.triggerEventId).toBe(one.body.triggerEventId);
      expect(two.body.outboxJobId).toBe(one.body.outboxJobId);
      expect([one.body.message, two.body.message].sort()).toEqual(['Duplicate trigger: already queued', 'Journey trigger queued']);
      const jobs = await rows(
        `SELECT count(*)::int AS n FROM outbox_jobs j JOIN webhook_events e ON e.id = j.payload->>'webhookEventId' WHERE e.raw_body = $1`,
        [Buffer.from(JSON.stringify(body))],
      );
      expect(jobs).toEqual([{ n: 1 }]);
      const headers = { 'idempotency-key': 'trigger-key-1' };
      const k1 = await post('/compat/journey-trigger/welcome/new-customer', { phone: '+447700900801', v: 1 }, { headers });
      const k2 = await post('/compat/journey-trigger/welcome/new-customer', { phone: '+447700900801', v: 2 }, { headers });
      expect(k2.body.triggerEventId).toBe(k1.body.triggerEventId);
    });

    it('an identical trigger after the 24-hour window is a new trigger', async () => {
      const body = { phone: '+447700900802' };
      const first = await post('/compat/journey-trigger/welcome/new-customer', body);
      clock.set(new Date(clock.now().getTime() + 24 * 3600 * 1000 + 1000));
      const later = await post('/compat/journey-trigger/welcome/new-customer', body);
      expect(later.body.triggerEventId).not.toBe(first.body.triggerEventId);
      expect(later.body.message).toBe('Journey trigger queued');
    });

    it('without a phone number: 400 naming the accepted fields; an unmapped path: 404; an inactive journey: 409 and nothing queued', async () => {
      const noPhone = await post('/compat/journey-trigger/welcome/new-customer', { first_name: 'x' });
      expect(noPhone.status).toBe(400);
      expect(noPhone.body.message).toBe("Send the contact's phone number in one of: phone, phone_number, phoneNumber, to, msisdn, mobile, mobile_phone");
      expect((await post('/compat/journey-trigger/nowhere', { phone: '+447700900900' })).status).toBe(404);
      expect((await post('/webhooks/v0/rest-trigger/organization/org-1/flow/flow-unknown/trigger/', { phone: '+447700900900' })).status).toBe(404);
      const paused = await post('/compat/journey-trigger/paused-flow', { phone: '+447700900900' });
      expect(paused.status).toBe(409);
      expect(paused.body).toMatchObject({ status: 'error', message: expect.stringContaining('paused') });
    });

    it("workspace isolation: another workspace's mapping answers 404 to this key, and the payload cannot name a workspace", async () => {
      const res = await post('/webhooks/v0/rest-trigger/organization/org-b/flow/flow-b/trigger/', {
        phone: '+447700900901',
        workspaceId: b.workspaceId,
        workspace: 'compat-b',
      });
      expect(res.status).toBe(404);
      const own = await post('/webhooks/v0/rest-trigger/organization/org-b/flow/flow-b/trigger/', { phone: '+447700900901' }, { key: b.key });
      expect(own.status).toBe(200);
      const [evt] = await rows(`SELECT workspace_id FROM webhook_events WHERE id = $1`, [own.body.triggerEventId]);
      expect(evt.workspace_id).toBe(b.workspaceId);
      const partner = await post('/api/v0/webhooks/incoming/partner/custom_external_event', {
        event_name: 'x',
        phone: '+447700900902',
        workspace_id: b.workspaceId,
      });
      const [p] = await rows(`SELECT workspace_id FROM webhook_events WHERE id = $1`, [partner.body.webhookEventId]);
      expect(p.workspace_id).toBe(a.workspaceId);
    });
  });

  describe('partner events', () => {
    const path = '/api/v0/webhooks/incoming/partner/custom_external_event';

    it('flattened and nested contact styles: {status, message, webhookEventId, outboxJobId}', async () => {
      const flat = await post(path, { event_name: 'order_shipped', phone: '+447700901000', first_name: 'Flat', tracking: 'TRK1' });
      const nested = await post(path, {
        event_name: 'order_shipped',
        contact: { phone_number: '+447700901001', first_name: 'Nested' },
        properties: { tracking: 'TRK2' },
      });
      for (const res of [flat, nested]) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          status: 'success',
          message: 'Event received',
          webhookEventId: expect.stringMatching(/^evt_/),
          outboxJobId: expect.stringMatching(/^job_/),
          requestId: expect.any(String),
        });
      }
      const [evt] = await rows(`SELECT topic, summary FROM webhook_events WHERE id = $1`, [nested.body.webhookEventId]);
      expect(evt).toMatchObject({ topic: 'partner_event', summary: { compat: 'partner_event', eventName: 'order_shipped' } });
    });

    it.each([
      [{ phone: '+447700901002' }, 'event_name is required'],
      [{ event_name: '', phone: '+447700901002' }, 'event_name is required'],
      [{ event_name: 'order shipped', phone: '+447700901002' }, 'event_name must not contain whitespace'],
      [{ event_name: 'order\tshipped', phone: '+447700901002' }, 'event_name must not contain whitespace'],
      [{ event_name: 'order\u00a0shipped', phone: '+447700901002' }, 'event_name must not contain whitespace'],
      [{ event_name: ['x'], phone: '+447700901002' }, 'event_name must be a string'],
    ])('%j: 400 {status: "error", message: %j}', async (body, message) => {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message, requestId: expect.any(String) });
    });

    it('a partner event names its contact: 400 without phone or external_reference_id', async () => {
      const res = await post(path, { event_name: 'x', first_name: 'Anon' });
      expect(res.status).toBe(400);
    });
  });

  it('compat calls are listed beside the provider webhooks (source and topic filters) and replay as new events with their summary', async () => {
    const res = await post('/compat/journey-trigger/welcome/new-customer', { phone: '+447700901200', first_name: 'Lin' });
    const scope = { workspaceId: a.workspaceId, actorId: a.op.memberId, role: 'owner' as const };
    const listed = await listWorkspaceWebhooks(deps, scope, { source: 'compat', topic: 'journey_trigger', limit: 200 });
    expect(listed.webhooks.map((w) => w.id)).toContain(res.body.triggerEventId);
    expect(listed.webhooks.every((w) => w.source === 'compat' && w.topic === 'journey_trigger')).toBe(true);
    const replay = await replayWebhook(deps, scope, { id: res.body.triggerEventId, requestId: 'req_test' });
    expect(replay).toMatchObject({ accepted: true, replayedFromId: res.body.triggerEventId, webhookEvent: { source: 'compat', topic: 'journey_trigger' } });
    const [clone] = await rows(`SELECT summary, replay_of_id FROM webhook_events WHERE id = $1`, [replay.webhookEvent.id]);
    expect(clone.replay_of_id).toBe(res.body.triggerEventId);
    // The journey and the chain's first event survive the replay: the run it may start is the original's.
    expect(clone.summary).toMatchObject({ compat: 'journey_trigger', journeyId: journeyA, rootEventId: res.body.triggerEventId });
  });

  describe('hostile input', () => {
    it.each([
      ['not JSON', '{"phone":', 'application/json', 400],
      ['an array', '[1,2]', 'application/json', 400],
      ['not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json', 400],
      ['a NUL in the phone', '{"phone":"+4477\\u0000"}', 'application/json', 400],
      ['form data', 'phone=1', 'application/x-www-form-urlencoded', 415],
      ['UTF-16', '{"phone":"+447700900001"}', 'application/json; charset=utf-16', 415],
      ['deep nesting', `{"phone":"+447700900001","x":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'application/json', 400],
    ])('%s: %s -> 4xx with the legacy shape', async (_name, body, type, status) => {
      const res = await rawRequest(`${api.url}/compat/contact`, {
        method: 'POST',
        headers: { 'x-api-key': a.key, 'content-type': type },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ status: 'error', message: expect.any(String) });
    });

    it('a body over the limit: 413', async () => {
      const res = await rawRequest(`${api.url}/compat/contact`, {
        method: 'POST',
        headers: { 'x-api-key': a.key, 'content-type': 'application/json' },
        body: JSON.stringify({ phone: '+447700900001', pad: 'x'.repeat(300 * 1024) }),
      });
      expect(res.status).toBe(413);
      expect(res.body.status).toBe('error');
    });

    it('no Content-Type at all is read as JSON (legacy callers omit it)', async () => {
      const res = await rawRequest(`${api.url}/compat/contact`, {
        method: 'POST',
        headers: { 'x-api-key': a.key },
        // Bytes, so fetch adds no Content-Type of its own.
        body: new Uint8Array(Buffer.from('{"phone":"+447700901100"}')),
      });
      expect(res.status).toBe(200);
    });

    it('hostile path segments map to nothing: 404', async () => {
      for (const p of [
        '/compat/journey-trigger/..%2Fwelcome',
        '/compat/journey-trigger/a%00b',
        '/webhooks/v0/rest-trigger/organization/%E0%A4%A/flow/f/trigger/',
      ]) {
        const res = await post(p, { phone: '+447700900001' });
        expect(res.status, p).toBeGreaterThanOrEqual(400);
        expect(res.status, p).toBeLessThan(500);
      }
    });
  });
});
