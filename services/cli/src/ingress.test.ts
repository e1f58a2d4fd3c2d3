import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditLogs } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { runCli } from './testing';

describe('mos ingress (platform admin decides where the shared provider paths go)', () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-ingress-'));
  const mos = (args: string[], stdin?: string) => runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' }, stdin);

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('bootstrap --provider-ingress, show, set, clear; each move audited in both workspaces', async () => {
    const a = await mos(['bootstrap', '--workspace', 'alpha', '--email', 'o@alpha.test', '--password', 'a-long-password-1', '--provider-ingress', '--json']);
    expect(a.code, a.stderr).toBe(0);
    const b = await mos(['bootstrap', '--workspace', 'beta', '--email', 'o@beta.test', '--password', 'a-long-password-1', '--json']);
    expect(b.code, b.stderr).toBe(0);
    const alpha = a.json.workspace.id as string;
    const beta = b.json.workspace.id as string;

    expect((await mos(['ingress', 'show', '--json'])).json).toEqual({ workspace: { id: alpha, slug: 'alpha' } });
    expect((await mos(['ingress', 'set', '--workspace', 'beta', '--json'])).json).toEqual({ workspace: { id: beta, slug: 'beta' } });
    expect((await mos(['ingress', 'show', '--json'])).json).toEqual({ workspace: { id: beta, slug: 'beta' } });

    const actions = async (ws: string) => (await listAuditLogs(tdb.db, ws, { limit: 50 })).map((e) => e.action).filter((x) => x.startsWith('platform.'));
    expect(await actions(alpha)).toEqual(['platform.ingress.unset', 'platform.ingress.set']);
    expect(await actions(beta)).toEqual(['platform.ingress.set']);

    const cleared = await mos(['ingress', 'clear']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(/not configured/);
    expect((await mos(['ingress', 'show', '--json'])).json).toEqual({ workspace: null });
    expect(await actions(beta)).toEqual(['platform.ingress.unset', 'platform.ingress.set']);

    const unknown = await mos(['ingress', 'set', '--workspace', 'nope', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: 'not_found' });
  }, 90_000);
});
