import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, findWorkspaceBySlug } from '@mos/db';
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
    for (const slug of ['acme', 'globex']) {
      const boot = await mos(['bootstrap', '--workspace', slug, '--email', `owner@${slug}.test`, '--password', 'a-long-password-1', '--json']);
      expect(boot.code, boot.stderr).toBe(0);
    }
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
    const badLimit = await mos(['journeys', 'runs', journeyId, '--workspace', 'acme', '--limit', '0', '--json']);
    expect(JSON.parse(badLimit.stderr).error).toBe('invalid_query');
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
    expect((await mos(['compat-mappings', 'list', '--workspace', 'globex', '--json'])).json).toEqual({ compatMappings: [] });
    const human = await mos(['compat-mappings', 'list', '--workspace', 'acme']);
    expect(human.stdout).toContain('/compat/journey-trigger/shop/new-order');

    const removed = await mos(['compat-mappings', 'remove', legacy.json.compatMapping.id, '--workspace', 'acme', '--json']);
    expect(removed.json).toEqual({ ok: true, removed: legacy.json.compatMapping.id });
    expect((await mos(['compat-mappings', 'list', '--workspace', 'acme', '--json'])).json.compatMappings).toHaveLength(2);
    const actions = (await tdb.db.select().from(auditLogs)).map((a) => [a.action, a.actorId]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['compat_mapping.create', 'cli'],
        ['compat_mapping.delete', 'cli'],
      ]),
    );
  }, 60_000);

  it('refuses a taken path (any workspace), mixed or missing kinds, bad paths, other workspaces’ ids', async () => {
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
    for (const flags of [[], ['--organization', 'o', '--flow', 'f', '--legacy-path', 'p'], ['--trigger', 't', '--legacy-path', 'p']]) {
      const r = await mos(['compat-mappings', 'add', '--workspace', 'globex', '--journey', otherJourneyId, ...flags, '--json']);
      expect(r.code, flags.join(' ')).toBe(1);
      expect(JSON.parse(r.stderr).error).toBe('invalid_request');
    }
    const noFlow = await mos(['compat-mappings', 'add', '--workspace', 'globex', '--journey', otherJourneyId, '--organization', 'o']);
    expect(noFlow.code).toBe(1);
    expect(noFlow.stderr).toMatch(/flowId/);
    const badPath = await mos(['compat-mappings', 'add', '--workspace', 'globex', '--journey', otherJourneyId, '--legacy-path', '../etc', '--json']);
    expect(JSON.parse(badPath.stderr).error).toBe('invalid_request');
    const foreignJourney = await mos(['compat-mappings', 'add', '--workspace', 'globex', '--journey', journeyId, '--legacy-path', 'x', '--json']);
    expect(JSON.parse(foreignJourney.stderr).error).toBe('journey_not_found');
    const acmeMapping = (await mos(['compat-mappings', 'list', '--workspace', 'acme', '--json'])).json.compatMappings[0].id;
    const foreignRemove = await mos(['compat-mappings', 'remove', acmeMapping, '--workspace', 'globex', '--json']);
    expect(JSON.parse(foreignRemove.stderr).error).toBe('compat_mapping_not_found');
    expect((await mos(['compat-mappings', 'list', '--workspace', 'acme', '--json'])).json.compatMappings.map((m: { id: string }) => m.id)).toContain(
      acmeMapping,
    );
    const unknownWs = await mos(['journeys', 'list', '--workspace', 'nope', '--json']);
    expect(JSON.parse(unknownWs.stderr).error).toBe('not_found');
    expect((await mos(['compat-mappings', 'remove', '--workspace', 'acme'])).code).toBe(2);
  }, 120_000);
});
