import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen, trpcProcedures } from '@mos/http/testing';
import { appRouter } from '@mos/trpc';
import type { AppDeps } from '@mos/app';
import { seedCredentials, seedWorkspaceEntities, testDeps, workspaceSnapshot, type SeededCredentials, type WorkspaceEntities } from '@mos/app/testing';
import { createControlPlaneApp } from './app';
import { EXTERNAL_ID_FIELDS, ID_FIELDS, INPUT_BESIDE_ID, LIST_FILTERS, REST_ROUTES } from './testing/security-policy';
import { idFields, inputValid, trpcCall } from './testing/trpc-calls';

/**
 * Workspace B's owner hands every id-taking procedure and REST route an id of workspace A's:
 * each answers 404 (a list filtered by it: an empty list), exactly as for an id that does not
 * exist, never 403 (which would confirm the id), and nothing of A changes (every row of every
 * workspace table, compared before and after). The cases are generated from the procedures'
 * input parsers: a new id-like field fails here until ID_FIELDS says what it names.
 */
const procedures = trpcProcedures(appRouter);
const idLike = procedures.flatMap((p) => idFields(p.inputs).map((field) => ({ procedure: p, field, key: `${p.path}.${field}` })));
const cases = idLike.filter((c) => !EXTERNAL_ID_FIELDS.has(c.key));
const restCases = Object.entries(REST_ROUTES).flatMap(([route, target]) => {
  const params = [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((p) => p !== 'name');
  return 'procedure' in target && params.length === 1 ? [{ route, procedure: target.procedure, param: params[0]! }] : [];
});

describe('workspace isolation (control plane)', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let creds: SeededCredentials;
  let a: WorkspaceEntities;
  let before: Record<string, string>;
  const inputFor = (path: string, field: string, id: string) => ({ ...INPUT_BESIDE_ID[path], [field]: id });
  const leaks = (body: unknown) => Object.values(a).filter((id) => JSON.stringify(body).includes(id));

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    cp = await listen(createControlPlaneApp(deps));
    creds = await seedCredentials(deps);
    a = await seedWorkspaceEntities(deps, creds.a.owner);
    // B holds records of every kind too, so "not found" cannot come from an empty workspace.
    await seedWorkspaceEntities(deps, creds.b);
  }, 60_000);
  afterAll(async () => {
    await cp?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  it('knows what every id-like input field names', () => {
    expect(idLike.map((c) => c.key).filter((k) => !(k in ID_FIELDS) && !EXTERNAL_ID_FIELDS.has(k))).toEqual([]);
    expect(Object.keys(ID_FIELDS).filter((k) => !cases.some((c) => c.key === k))).toEqual([]);
  });

  it("A's owner reads each of A's records by id (the ids are real, the inputs valid)", async () => {
    for (const { procedure, field, key } of cases.filter((c) => c.procedure.type === 'query')) {
      const res = await trpcCall(cp.url, procedure, inputFor(procedure.path, field, a[ID_FIELDS[key]!]), bearer(creds.a.owner.token));
      expect(res.status, key).toBe(200);
    }
    before = await workspaceSnapshot(tdb.db, creds.a.owner.workspaceId);
  });

  describe("B's owner with A's ids over /trpc", () => {
    it.each(cases.map((c) => [c.key, c] as const))('%s', async (key, { procedure, field }) => {
      const input = inputFor(procedure.path, field, a[ID_FIELDS[key]!]);
      expect(inputValid(procedure.inputs, input), `${key}: INPUT_BESIDE_ID must make the input valid`).toBe(true);
      const res = await trpcCall(cp.url, procedure, input, bearer(creds.b.token));
      if (LIST_FILTERS.has(procedure.path)) expect(res.status).toBe(200);
      else expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(leaks(res.body)).toEqual([]);
    });
  });

  describe("B's owner with A's ids over REST /api", () => {
    it.each(restCases.map((c) => [c.route, c] as const))('%s', async (route, { procedure, param }) => {
      const [method, pattern] = route.split(' ') as [string, string];
      const id = a[ID_FIELDS[`${procedure}.${param}`] ?? ID_FIELDS[`${procedure}.id`]!];
      const body = method === 'get' || method === 'delete' ? undefined : (INPUT_BESIDE_ID[procedure] ?? {});
      const res = await jsonRequest(`${cp.url}${pattern.replace(`:${param}`, id)}`, { method: method.toUpperCase(), headers: bearer(creds.b.token), body });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error).toMatch(/not_found/);
      expect(leaks(res.body)).toEqual([]);
    });
  });

  it("changes nothing of A's (every row of every workspace table)", async () => {
    expect(await workspaceSnapshot(tdb.db, creds.a.owner.workspaceId)).toEqual(before);
  });
});
