import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundSigningKey, newId, signInboundBody } from '@mos/core';
import { listAuditLogs, upsertSyncedTemplate } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen, rawRequest } from '@mos/http/testing';
import { authenticate, exportContactData, receiveInboundWebhook, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/**
 * Managing inbound webhooks from Settings (REST and tRPC): what Settings may create (disabled
 * dry-runs on one approved UTILITY template), what only owners/admins may do (promote), the
 * one-time secret, mapping validation and preview, runs, isolation and the GDPR export.
 */
describe('inbound webhook management', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  let developer: SeededOperator;
  let viewer: SeededOperator;
  let stranger: SeededOperator;
  const mapping = { to: 'path:phone', 'parameters.body.1': 'path:name' };
  const api = (op: SeededOperator | null, method: string, path: string, body?: unknown) =>
    jsonRequest(`${cp.url}/api${path}`, { method, headers: op ? bearer(op.token) : {}, ...(body === undefined ? {} : { body }) });
  const trpc = async (op: SeededOperator) => createCaller({ deps, actor: (await authenticate(deps, op.token))!, requestId: 't' });
  const template = async (name: string, category: string, status = 'approved', text = 'Hi {{1}}') =>
    upsertSyncedTemplate(
      tdb.db,
      owner.workspaceId,
      { providerTemplateId: `${name}-1`, name, language: 'en_US', category, status, components: [{ type: 'BODY', text }] },
      new Date(),
    );
  const create = (op: SeededOperator, body: Record<string, unknown> = {}) =>
    api(op, 'POST', '/inbound-webhooks', { name: 'CRM', templateName: 'notice', templateLocale: 'en_US', mapping, ...body });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    cp = await listen(createControlPlaneApp(deps));
    owner = await seedOperator(deps, { role: 'owner', phoneNumberId: '106540352242922' });
    developer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    stranger = await seedOperator(deps, { role: 'owner' });
    await template('notice', 'UTILITY');
    await template('promo', 'MARKETING');
    await template('waiting', 'UTILITY', 'pending_approval');
  }, 60_000);

  afterAll(async () => {
    await cp?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  it('Settings creates a disabled dry-run and shows the secret once; only its hash is stored', async () => {
    const res = await create(developer);
    expect(res.status).toBe(201);
    const { inboundWebhook: w, secret, standardWebhooksSecret } = res.body;
    expect(w).toMatchObject({ enabled: false, dryRun: true, origin: 'settings', templateName: 'notice', templateLocale: 'en_US', mapping });
    expect(w.path).toBe(`/api/v1/inbound-webhooks/${w.slug}`);
    expect(secret.startsWith(w.secretPrefix)).toBe(true);
    expect(standardWebhooksSecret).toMatch(/^whsec_/);
    const row = (await tdb.pool.query(`SELECT * FROM inbound_webhooks WHERE id = $1`, [w.id])).rows[0];
    expect(row.secret_hash).toBe(inboundSigningKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    for (const path of ['/inbound-webhooks', `/inbound-webhooks/${w.id}`]) {
      const got = await api(developer, 'GET', path);
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body)).not.toContain(secret.slice(12));
      expect(JSON.stringify(got.body)).not.toContain(row.secret_hash);
    }
  });

  it('Settings may only use an approved UTILITY template, with as many body parameters as it takes', async () => {
    expect((await create(developer, { templateName: 'promo' })).body).toMatchObject({ error: 'validation_failed' });
    expect((await create(developer, { templateName: 'waiting' })).status).toBe(422);
    expect((await create(developer, { templateName: 'missing' })).body.error).toBe('template_not_approved');
    const noTemplate = await api(developer, 'POST', '/inbound-webhooks', { name: 'x', mapping });
    expect(noTemplate.status).toBe(400);
    const tooMany = await create(developer, { mapping: { ...mapping, 'parameters.body.2': 'path:x' } });
    expect(tooMany.body).toMatchObject({ error: 'validation_failed', issues: [{ code: 'body_parameter_count' }] });
  });

  it('mappings are validated on save: unknown and prototype-polluting targets are refused before anything is stored', async () => {
    const before = Number((await tdb.pool.query(`SELECT count(*) n FROM inbound_webhooks`)).rows[0].n);
    for (const [target, code] of [
      ['__proto__', 'forbidden_target'],
      ['constructor.prototype.x', 'forbidden_target'],
      ['parameters.__proto__.polluted', 'forbidden_target'],
      ['parameters.body.0', 'unknown_target'],
      ['cc', 'unknown_target'],
    ] as const) {
      // Raw JSON, so a "__proto__" key arrives as the sender wrote it.
      const body = `{"name":"x","templateName":"notice","templateLocale":"en_US","mapping":{"to":"path:phone","parameters.body.1":"path:name",${JSON.stringify(target)}:"path:x"}}`;
      const res = await rawRequest(`${cp.url}/api/inbound-webhooks`, {
        method: 'POST',
        headers: { ...bearer(owner.token), 'content-type': 'application/json' },
        body,
      });
      expect(res.status, target).toBe(400);
      expect(
        res.body.issues.map((i: { code: string }) => i.code),
        target,
      ).toContain(code);
    }
    const badExpr = await create(owner, { mapping: { to: 'path:', 'parameters.body.1': 'json:{' } });
    expect(badExpr.body.issues.map((i: { code: string }) => i.code)).toEqual(['invalid_expression', 'invalid_expression']);
    expect(Number((await tdb.pool.query(`SELECT count(*) n FROM inbound_webhooks`)).rows[0].n)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('preview shows the mapped request and every problem, sending and storing nothing', async () => {
    const w = (await create(developer)).body.inboundWebhook;
    const ok = await api(developer, 'POST', `/inbound-webhooks/${w.id}/preview`, { samplePayload: { phone: '+1 (415) 555-0100', name: 'Ada' } });
    expect(ok.body).toMatchObject({
      ok: true,
      issues: [],
      request: { to: '+14155550100', templateName: 'notice', templateLocale: 'en_US', parameters: { body: ['Ada'] } },
      stored: { to: { present: true, valid: true } },
    });
    expect(JSON.stringify(ok.body.stored)).not.toContain('Ada');
    const bad = await api(developer, 'POST', '/inbound-webhooks/preview', {
      mapping: { to: 'path:phone', 'parameters.body.1': 'path:name', 'parameters.body.2': 'literal:extra' },
      templateName: 'waiting',
      templateLocale: 'en_US',
      samplePayload: { phone: '12', name: { nested: true } },
    });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.issues.map((i: { code: string }) => i.code).sort()).toEqual(['invalid_phone', 'not_scalar']);
    const tpl = await api(developer, 'POST', '/inbound-webhooks/preview', {
      mapping: { to: 'path:phone', 'parameters.body.1': 'path:name', 'parameters.body.2': 'literal:extra' },
      templateName: 'waiting',
      templateLocale: 'en_US',
      samplePayload: { phone: '+14155550100', name: 'Ada' },
    });
    expect(tpl.body.issues.map((i: { code: string }) => i.code)).toEqual(['template_not_approved']);
    expect(Number((await tdb.pool.query(`SELECT count(*) n FROM outbound_messages`)).rows[0].n)).toBe(0);
  });

  it('promotion is owner/admin only, through tRPC or the CLI; Settings REST has no route to it', async () => {
    const w = (await create(developer)).body.inboundWebhook;
    expect((await api(owner, 'POST', `/inbound-webhooks/${w.id}/promote`, { live: true })).status).toBe(404);
    const patched = await api(owner, 'PATCH', `/inbound-webhooks/${w.id}`, { enabled: true, dryRun: false });
    expect(patched.status).toBe(400);
    await expect((await trpc(developer)).inboundWebhooks.promote({ id: w.id, live: true })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const enabled = await (await trpc(owner)).inboundWebhooks.promote({ id: w.id, live: false });
    expect(enabled).toMatchObject({ enabled: true, dryRun: true });
    const livened = await (await trpc(owner)).inboundWebhooks.promote({ id: w.id, live: true });
    expect(livened).toMatchObject({ enabled: true, dryRun: false });
    expect((await api(developer, 'POST', `/inbound-webhooks/${w.id}/dry-run`)).body.inboundWebhook).toMatchObject({ enabled: true, dryRun: true });
    expect((await api(developer, 'POST', `/inbound-webhooks/${w.id}/disable`)).body.inboundWebhook).toMatchObject({ enabled: false });
    const actions = (await listAuditLogs(deps.db, owner.workspaceId, { limit: 50 })).filter((a) => a.targetId === w.id).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'inbound_webhook.create',
        'inbound_webhook.promote',
        'inbound_webhook.promote_live',
        'inbound_webhook.dry_run',
        'inbound_webhook.disable',
      ]),
    );
  });

  it('viewers cannot see or change configurations; anonymous callers are 401', async () => {
    expect((await api(viewer, 'GET', '/inbound-webhooks')).status).toBe(403);
    expect((await create(viewer)).status).toBe(403);
    expect((await api(null, 'GET', '/inbound-webhooks')).status).toBe(401);
  });

  it('update re-validates; rotate shows a new secret once and the prefix changes', async () => {
    const created = (await create(developer)).body;
    const w = created.inboundWebhook;
    const upd = await api(developer, 'PATCH', `/inbound-webhooks/${w.id}`, {
      name: 'Renamed',
      mapping: { to: 'path:msisdn', 'parameters.body.1': 'literal:there' },
    });
    expect(upd.body.inboundWebhook).toMatchObject({ name: 'Renamed', mapping: { to: 'path:msisdn' } });
    expect((await api(developer, 'PATCH', `/inbound-webhooks/${w.id}`, { templateName: 'promo' })).status).toBe(400);
    const rotated = await api(developer, 'POST', `/inbound-webhooks/${w.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.inboundWebhook.secretPrefix).toBe(rotated.body.secret.slice(0, 12));
    expect(rotated.body.inboundWebhook.secretRotatedAt).not.toBeNull();
  });

  it('runs are listed per configuration with their message; another workspace sees none of it; the GDPR export lists runs that named the contact', async () => {
    const created = (await create(developer)).body;
    const w = created.inboundWebhook;
    await (await trpc(owner)).inboundWebhooks.promote({ id: w.id, live: true });
    const body = JSON.stringify({ phone: '+14155550111', name: 'Grace' });
    const t = Math.floor(Date.now() / 1000);
    const answer = await receiveInboundWebhook(deps, {
      slug: w.slug,
      headers: { 'x-service-signature': signInboundBody(inboundSigningKey(created.secret), t, body) },
      readBody: async () => Buffer.from(body),
    });
    expect(answer.body).toMatchObject({ status: 'queued' });
    const runs = await api(developer, 'GET', `/inbound-webhooks/${w.id}/runs?limit=5`);
    expect(runs.status).toBe(200);
    expect(runs.body.runs).toHaveLength(1);
    const run = runs.body.runs[0];
    expect(run).toMatchObject({ status: 'queued', httpStatus: 200, message: { status: 'queued', statusHistory: [{ status: 'queued' }] } });
    expect((await api(developer, 'GET', `/inbound-webhooks/runs/${run.id}`)).body.run.id).toBe(run.id);
    expect((await api(developer, 'GET', `/inbound-webhooks/${w.id}/runs?status=failed`)).body.runs).toEqual([]);
    expect((await api(developer, 'GET', `/inbound-webhooks/${w.id}/runs?limit=0`)).status).toBe(400);

    for (const path of [`/inbound-webhooks/${w.id}`, `/inbound-webhooks/${w.id}/runs`, `/inbound-webhooks/runs/${run.id}`]) {
      expect((await api(stranger, 'GET', path)).status, path).toBe(404);
    }
    expect((await api(stranger, 'DELETE', `/inbound-webhooks/${w.id}`)).status).toBe(404);
    expect((await api(stranger, 'POST', `/inbound-webhooks/${w.id}/rotate-secret`)).status).toBe(404);

    const doc = await exportContactData(deps, { workspaceId: owner.workspaceId, actorId: owner.memberId, role: 'owner' }, run.contactId);
    expect(doc.inboundWebhookRuns).toEqual([expect.objectContaining({ id: run.id, inboundWebhookId: w.id, status: 'queued', messageId: run.message.id })]);

    expect((await api(developer, 'DELETE', `/inbound-webhooks/${w.id}`)).body).toEqual({ ok: true });
    expect((await api(developer, 'GET', `/inbound-webhooks/${w.id}`)).status).toBe(404);
  });
});
