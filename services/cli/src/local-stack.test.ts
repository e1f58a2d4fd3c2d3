import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { runCli } from './testing';

/** The CLI as a second shell runs it while ./infra/up.sh is up: no DATABASE_URL exported. */
const mos = (args: string[], env: Record<string, string>) =>
  runCli(args, { DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined, MOS_ENV: 'development', ...env });

describe('mos CLI next to a running local stack', () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-stack-'));
  const emptyDataDir = mkdtempSync(join(tmpdir(), 'mos-cli-nostack-'));

  beforeAll(async () => {
    tdb = await createTestDatabase();
    writeFileSync(join(dataDir, 'stack.env'), `DATABASE_URL=${tdb.url}\nTEMPORAL_ADDRESS=127.0.0.1:7233\n`);
  });
  afterAll(async () => {
    await tdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(emptyDataDir, { recursive: true, force: true });
  });

  it('uses the connection up.sh recorded under .data/ when DATABASE_URL is unset', async () => {
    const boot = await mos(['bootstrap', '--workspace', 'dev', '--email', 'admin@mos.test', '--password', 'a-long-password-1', '--json'], {
      MOS_DATA_DIR: dataDir,
    });
    expect(boot.code, boot.stderr).toBe(0);
    const list = await mos(['members', 'list', '--workspace', 'dev', '--json'], { MOS_DATA_DIR: dataDir });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).members.map((m: { email: string }) => m.email)).toEqual(['admin@mos.test']);
  }, 60_000);

  it('lets a DATABASE_URL that is set win over the recorded one', async () => {
    const other = mkdtempSync(join(tmpdir(), 'mos-cli-stale-'));
    try {
      writeFileSync(join(other, 'stack.env'), 'DATABASE_URL=postgres://nobody@127.0.0.1:1/nothing\n');
      // Reaching the test database (not the recorded, dead one) gets as far as the lookup.
      const r = await mos(['members', 'list', '--workspace', 'nope'], { MOS_DATA_DIR: other, DATABASE_URL: tdb.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no workspace with slug "nope"/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('says how to fix it when there is neither a DATABASE_URL nor a running stack', async () => {
    const r = await mos(['members', 'list', '--workspace', 'dev'], { MOS_DATA_DIR: emptyDataDir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('./infra/up.sh');
    expect(r.stderr).toMatch(/set DATABASE_URL/);
  }, 60_000);
});
