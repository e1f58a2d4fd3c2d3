import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, findWorkspaceBySlug } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { runCli, type CliRun } from './testing';

describe('mos workspace', () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-ws-'));
  const mos = (args: string[]): Promise<CliRun> => runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const boot = await mos(['bootstrap', '--workspace', 'acme', '--email', 'owner@acme.test', '--password', 'a-long-password-1', '--json']);
    expect(boot.code, boot.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => tdb?.drop());

  it('sets, shows and clears the /v1 rate-limit override, audited', async () => {
    const shown = await mos(['workspace', 'show', '--workspace', 'acme']);
    expect(shown.stdout).toMatch(/rate limit 600 \(default\) requests per minute per key/);
    const set = await mos(['workspace', 'set', '--workspace', 'acme', '--api-rate-limit', '120', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toMatchObject({ slug: 'acme', apiRateLimitPerMinute: 120 });
    expect((await findWorkspaceBySlug(tdb.db, 'acme'))!.apiRateLimitPerMinute).toBe(120);
    const cleared = await mos(['workspace', 'set', '--workspace', 'acme', '--api-rate-limit', 'default']);
    expect(cleared.stdout).toMatch(/rate limit 600 \(default\)/);
    expect((await findWorkspaceBySlug(tdb.db, 'acme'))!.apiRateLimitPerMinute).toBeNull();
    const audit = await tdb.db.select().from(auditLogs);
    expect(audit.filter((e) => e.action === 'workspace.platform_settings')).toHaveLength(2);
  }, 60_000);

  it('marks a workspace upgraded to 1000 messages per second, and back', async () => {
    const up = await mos(['workspace', 'set', '--workspace', 'acme', '--throughput-upgraded', 'true', '--json']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.json).toMatchObject({ slug: 'acme', throughputUpgraded: true });
    expect((await findWorkspaceBySlug(tdb.db, 'acme'))!.throughputUpgraded).toBe(true);
    expect((await mos(['workspace', 'show', '--workspace', 'acme'])).stdout).toMatch(/sends 1000 \(upgraded\) messages per second/);
    await mos(['workspace', 'set', '--workspace', 'acme', '--throughput-upgraded', 'false']);
    expect((await findWorkspaceBySlug(tdb.db, 'acme'))!.throughputUpgraded).toBe(false);
    const bad = await mos(['workspace', 'set', '--workspace', 'acme', '--throughput-upgraded', 'yes']);
    expect(bad.code).toBe(1);
    expect((await mos(['workspace', 'set', '--workspace', 'acme'])).code).toBe(1);
  }, 60_000);

  it('refuses values outside the bounds, and unknown workspaces, with exit 1', async () => {
    for (const v of ['0', '100001', '1.5']) {
      const res = await mos(['workspace', 'set', '--workspace', 'acme', '--api-rate-limit', v]);
      expect(res.code, v).toBe(1);
      expect(res.stderr, v).toMatch(/apiRateLimitPerMinute/);
    }
    expect((await mos(['workspace', 'show', '--workspace', 'nope'])).stderr).toMatch(/no workspace with slug "nope"/);
  }, 60_000);
});
