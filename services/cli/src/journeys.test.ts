import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, compatMappings, findWorkspaceBySlug, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createJourney, type AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { runCli, type CliRun } from './testing';

/** `mos journeys` and `mos compat-mappings`: the same app functions as tRPC, per workspace. */
describe('mos journeys and mos compat-mappings', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let journeyId: string;
  let otherJourneyId: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-jrn-'));
  const mos = (args: string[]): Promise<CliRun> => runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    // Workspaces straight in the database: each CLI call costs a process start, so this suite
    // spends them on the commands under test (bootstrap has its own suite).
    for (const slug of ['acme', 'globex']) await upsertWorkspace(tdb.db, slug, {});
    const scopeOf = async (slug: string) => ({ workspaceId: (await findWorkspaceBySlug(tdb.db, slug))!.id, actorId: 'test', role: 'platform' as const });
    const steps = [{ id: 'end', type: 'exit' as const }];
    journeyId = (await createJourney(deps, await scopeOf('acme'), { name: 'Welcome', trigger: { type: 'api' }, steps })).journey.id;
    otherJourneyId = (await createJourney(deps, await scopeOf('globex'), { name: 'Theirs', trigger: { type: 'api' }, steps })).journey.id;
  }, 60_000);
  afterAll(async () => tdb?.drop());

  it('journeys list: JSON and human, per workspace', async () => {
    const json = await mos(['journeys', 'list', '--workspace', 'acme', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json).toEqual({ journeys: [expect.objectContaining({ id: journeyId, name: 'Welcome', status: 'draft', triggerType: 'api' })] });
    const human = await mos(['journeys', 'list', '--workspace', 'acme']);
    expect(human.stdout).toContain(journeyId);
    expect(human.stdout).not.toContain(otherJourneyId);
    const runs = await mos(['journeys', 'runs', journeyId, '--workspace', 'acme', '--json']);
    expect(runs.json).toEqual({ runs: [], nextCursor: null });
    const foreign = await mos(['journeys', 'runs', otherJourneyId, '--workspace', 'acme', '--json']);
    expect(foreign.code).toBe(1);
    expect(JSON.parse(foreign.stderr).error).toBe('journey_not_found');
  }, 60_000);

  it('compat-mappings add (rest trigger, flow-wide, legacy path), list, remove; audited', async () => {
    const rest = await mos([
      'compat-mappings',
      'add',
      '--workspace',
      'acme',
      '--journey',
      journeyId,
      '--organization',
      'o1',
      '--flow',
      'f1',
      '--trigger',
      't1',
      '--json',
    ]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.json.compatMapping).toMatchObject({
      id: expect.stringMatching(/^cmap_/),
      kind: 'rest_trigger',
      triggerId: 't1',
      path: '/webhooks/v0/rest-trigger/organization/o1/flow/f1/trigger/t1/',
      journeyId,
      createdBy: 'cli',
    });
    const flow = await mos(['compat-mappings', 'add', '--workspace', 'acme', '--journey', journeyId, '--organization', 'o1', '--flow', 'f1']);
    expect(flow.code, flow.stderr).toBe(0);
    expect(flow.stdout).toMatch(/^created cmap_\S+: \/webhooks\/v0\/rest-trigger\/organization\/o1\/flow\/f1\/trigger\/ -> jrn_/);
    const legacy = await mos(['compat-mappings', 'add', '--workspace', 'acme', '--journey', journeyId, '--legacy-path', 'shop/new-order', '--json']);
    expect(legacy.json.compatMapping).toMatchObject({ kind: 'legacy_path', path: '/compat/journey-trigger/shop/new-order' });

    const listed = await mos(['compat-mappings', 'list', '--workspace', 'acme', '--json']);
    expect(listed.json.compatMappings).toHaveLength(3);
    expect(listed.json.compatMappings.map((m: { path: string }) => m.path)).toContain('/compat/journey-trigger/shop/new-order');

    const removed = await mos(['compat-mappings', 'remove', legacy.json.compatMapping.id, '--workspace', 'acme', '--json']);
    expect(removed.json).toEqual({ ok: true, removed: legacy.json.compatMapping.id });
    expect(await tdb.db.select().from(compatMappings)).toHaveLength(2);
    const actions = (await tdb.db.select().from(auditLogs)).map((a) => [a.action, a.actorId]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['compat_mapping.create', 'cli'],
        ['compat_mapping.delete', 'cli'],
      ]),
    );
  }, 60_000);

  it('refuses a taken path (any workspace), mixed kinds and another workspace’s journey; a missing id is a usage error', async () => {
    const taken = await mos([
      'compat-mappings',
      'add',
      '--workspace',
      'globex',
      '--journey',
      otherJourneyId,
      '--organization',
      'o1',
      '--flow',
      'f1',
      '--trigger',
      't1',
      '--json',
    ]);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stderr)).toEqual({ error: 'compat_mapping_conflict', message: 'This path is already mapped to a journey' });
    // One refusal of each kind; the app function's every rule is covered by the tRPC suite.
    const mixed = await mos([
      'compat-mappings',
      'add',
      '--workspace',
      'globex',
      '--journey',
      otherJourneyId,
      '--organization',
      'o',
      '--flow',
      'f',
      '--legacy-path',
      'p',
      '--json',
    ]);
    expect(mixed.code).toBe(1);
    expect(JSON.parse(mixed.stderr).error).toBe('invalid_request');
    const foreignJourney = await mos(['compat-mappings', 'add', '--workspace', 'globex', '--journey', journeyId, '--legacy-path', 'x', '--json']);
    expect(JSON.parse(foreignJourney.stderr).error).toBe('journey_not_found');
    expect((await mos(['compat-mappings', 'remove', '--workspace', 'acme'])).code).toBe(2);
  }, 120_000);
});
