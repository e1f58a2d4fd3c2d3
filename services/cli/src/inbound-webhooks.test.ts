import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundSigningKey } from '@mos/core';
import { auditLogs, findWorkspaceBySlug, upsertSyncedTemplate } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { runCli, type CliRun } from './testing';

/** `mos inbound-webhooks`: create (disabled dry-run, secret once), promote, rotate, list without secrets. */
describe('mos inbound-webhooks', () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-iwh-'));
  const mos = (args: string[]): Promise<CliRun> => runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' });
  const mapping = JSON.stringify({ to: 'path:phone', 'parameters.body.1': 'path:name' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const boot = await mos(['bootstrap', '--workspace', 'acme', '--email', 'owner@acme.test', '--password', 'a-long-password-1', '--json']);
    expect(boot.code, boot.stderr).toBe(0);
    const ws = (await findWorkspaceBySlug(tdb.db, 'acme'))!;
    await upsertSyncedTemplate(
      tdb.db,
      ws.id,
      {
        providerTemplateId: '1',
        name: 'order_ready',
        language: 'en_US',
        category: 'MARKETING',
        status: 'approved',
        components: [{ type: 'BODY', text: 'Hi {{1}}' }],
      },
      new Date(),
    );
  }, 60_000);
  afterAll(async () => tdb?.drop());

  it('creates a disabled dry-run, promotes it (then live), rotates its secret and lists it without secrets', async () => {
    const created = await mos([
      'inbound-webhooks',
      'create',
      '--workspace',
      'acme',
      '--name',
      'Shop',
      '--template',
      'order_ready',
      '--locale',
      'en_US',
      '--mapping',
      mapping,
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    // The CLI is a platform tool: unlike Settings, any approved template (this one is MARKETING).
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^iwh_/),
      slug: expect.stringMatching(/^shop-/),
      secret: expect.stringMatching(/^mos_iwh_/),
      enabled: false,
      dryRun: true,
    });
    const { slug, secret } = created.json;
    const row = (await tdb.pool.query(`SELECT secret_hash FROM inbound_webhooks WHERE slug = $1`, [slug])).rows[0];
    expect(row.secret_hash).toBe(inboundSigningKey(secret));

    const promoted = await mos(['inbound-webhooks', 'promote', '--workspace', 'acme', '--slug', slug, '--json']);
    expect(promoted.json).toMatchObject({ slug, enabled: true, dryRun: true });
    const live = await mos(['inbound-webhooks', 'promote', '--workspace', 'acme', '--slug', slug, '--live', '--json']);
    expect(live.json).toMatchObject({ slug, enabled: true, dryRun: false });

    const rotated = await mos(['inbound-webhooks', 'rotate', '--workspace', 'acme', '--slug', slug, '--json']);
    expect(rotated.json.secret).toMatch(/^mos_iwh_/);
    expect(rotated.json.secret).not.toBe(secret);

    for (const args of [['--json'], []]) {
      const listed = await mos(['inbound-webhooks', 'list', '--workspace', 'acme', ...args]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(slug);
      for (const s of [secret, rotated.json.secret, inboundSigningKey(rotated.json.secret)]) expect(listed.stdout).not.toContain(s.slice(12));
    }
    const actions = (await tdb.db.select().from(auditLogs)).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['inbound_webhook.create', 'inbound_webhook.promote', 'inbound_webhook.promote_live', 'inbound_webhook.rotate_secret']),
    );
  }, 60_000);

  it('refuses a bad mapping with its issues and exit 1, and an unknown slug', async () => {
    const bad = await mos(['inbound-webhooks', 'create', '--workspace', 'acme', '--name', 'x', '--mapping', '{"__proto__":"path:x","to":"path:p"}', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr)).toMatchObject({
      error: 'validation_failed',
      issues: expect.arrayContaining([expect.objectContaining({ code: 'forbidden_target' })]),
    });
    const notJson = await mos(['inbound-webhooks', 'create', '--workspace', 'acme', '--name', 'x', '--mapping', '{nope']);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/--mapping must be a JSON object/);
    const unknown = await mos(['inbound-webhooks', 'promote', '--workspace', 'acme', '--slug', 'nope', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error).toBe('not_found');
  }, 60_000);
});
