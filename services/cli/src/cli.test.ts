import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@mos/core';
import { apiKeys, sessions, vaultSecrets } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { runCli, type CliRun } from './testing';

describe('mos CLI', () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-'));

  const mos = (args: string[], stdin?: string): Promise<CliRun> =>
    runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' }, stdin);

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('bootstrap creates a workspace and owner, and is idempotent', async () => {
    const args = [
      'bootstrap',
      '--workspace',
      'acme',
      '--email',
      'Owner@Acme.test',
      '--password',
      'a-long-password-1',
      '--waba-id',
      '102290129340398',
      '--phone-number-id',
      '106540352242922',
      '--provider-ingress',
      '--json',
    ];
    const first = await mos(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toEqual({
      workspace: { id: expect.stringMatching(/^ws_/), slug: 'acme' },
      operator: { id: expect.stringMatching(/^mem_/), email: 'owner@acme.test', role: 'owner' },
    });
    const second = await mos(args);
    expect(second.code).toBe(0);
    expect(second.json).toEqual(first.json);
  }, 60_000);

  it('manages members, and removing one revokes its sessions', async () => {
    const add = await mos(
      ['members', 'add', '--workspace', 'acme', '--email', 'dev@acme.test', '--password', '-', '--role', 'developer', '--json'],
      'dev-password-long\n',
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.json.member).toMatchObject({ email: 'dev@acme.test', role: 'developer' });
    const dup = await mos([
      'members',
      'add',
      '--workspace',
      'acme',
      '--email',
      'dev@acme.test',
      '--password',
      'dev-password-long',
      '--role',
      'viewer',
      '--json',
    ]);
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stderr)).toMatchObject({ error: 'conflict' });

    const workspace = (await tdb.db.query.workspaces.findFirst())!;
    await tdb.db
      .insert(sessions)
      .values({ id: 'ses_cli', workspaceId: workspace.id, memberId: add.json.member.id, tokenHash: sha256Hex('t'), lastSeenAt: new Date() });
    const list = await mos(['members', 'list', '--workspace', 'acme', '--json']);
    expect(list.json.members.map((m: { email: string }) => m.email).sort()).toEqual(['dev@acme.test', 'owner@acme.test']);
    const removed = await mos(['members', 'remove', '--workspace', 'acme', '--email', 'dev@acme.test', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await tdb.db.select().from(sessions)).toEqual([]);
    const again = await mos(['members', 'remove', '--workspace', 'acme', '--email', 'dev@acme.test', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: 'not_found' });
  }, 60_000);

  it('creates, lists and revokes API keys; the key is shown once and stored hashed', async () => {
    const created = await mos(['api-keys', 'create', '--workspace', 'acme', '--name', 'crm', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^mos_live_/), prefix: expect.any(String) });
    const [row] = await tdb.db.select().from(apiKeys);
    expect(row!.keyHash).toBe(sha256Hex(created.json.key));
    const list = await mos(['api-keys', 'list', '--workspace', 'acme', '--json']);
    expect(list.stdout).not.toContain(created.json.key);
    expect(list.json.apiKeys[0]).toMatchObject({ id: created.json.id, prefix: created.json.prefix, revokedAt: null });
    const revoked = await mos(['api-keys', 'revoke', '--workspace', 'acme', '--id', created.json.id, '--json']);
    expect(revoked.json.apiKey.revokedAt).not.toBeNull();
  }, 60_000);

  it('sets secrets from an argument or stdin and never prints values', async () => {
    const set = await mos(['secrets', 'set', '--workspace', 'acme', 'webhook-signing-secret', 'shh-signing', '--json']);
    expect(set.code, set.stderr).toBe(0);
    const fromStdin = await mos(['secrets', 'set', '--workspace', 'acme', 'provider-access-token', '-', '--json'], 'EAAG-token-from-stdin\n');
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const list = await mos(['secrets', 'list', '--workspace', 'acme', '--json']);
    expect(list.json.secrets.map((s: { name: string }) => s.name)).toEqual(['provider-access-token', 'webhook-signing-secret']);
    expect(list.stdout + set.stdout + fromStdin.stdout).not.toMatch(/shh-signing|EAAG-token/);
    const stored = await tdb.db.select().from(vaultSecrets);
    expect(JSON.stringify(stored)).not.toMatch(/shh-signing|EAAG-token/);
  }, 60_000);

  it('fails clearly with a non-zero exit on bad arguments', async () => {
    const cases: [string[], number, RegExp][] = [
      [['bootstrap', '--workspace', 'acme'], 2, /required option/],
      [['members', 'add', '--workspace', 'acme', '--email', 'x@y.test', '--password', 'long-enough-pass', '--role', 'emperor'], 1, /role/],
      [['secrets', 'set', '--workspace', 'acme', 'not-a-secret', 'v'], 1, /name/],
      [['api-keys', 'list', '--workspace', 'nope'], 1, /no workspace with slug "nope"/],
      [['bootstrap', '--workspace', 'Bad Slug!', '--email', 'a@b.test', '--password', 'long-enough-pass'], 1, /slug/],
      [['frobnicate'], 2, /unknown command/],
    ];
    for (const [args, code, message] of cases) {
      const r = await mos(args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  }, 90_000);

  it('prints help for every command', async () => {
    for (const args of [['--help'], ['bootstrap', '--help'], ['members', 'add', '--help'], ['api-keys', 'create', '--help'], ['secrets', 'set', '--help']]) {
      const r = await mos(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/Usage: mos/);
    }
  }, 60_000);
});
