import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Role } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { expressRoutes, jsonRequest, listen, trpcProcedures } from '@mos/http/testing';
import { appRouter } from '@mos/trpc';
import type { AppDeps } from '@mos/app';
import {
  CREDENTIALS,
  limiter,
  seedCredentials,
  settleLater,
  seedWorkspaceEntities,
  testDeps,
  withFreshSessions,
  type Credential,
  type SeededCredentials,
} from '@mos/app/testing';
import { createControlPlaneApp } from './app';
import { POLICY_ROLES, PROCEDURE_POLICY, REST_ROUTES, type Policy } from './testing/security-policy';
import { trpcCall } from './testing/trpc-calls';

/**
 * Every tRPC procedure and every REST route of the control plane, discovered from the router
 * and the Express stack, against every kind of caller. Each cell's expectation comes from the
 * declared policy (testing/security-policy.ts): 401 for anything but a live session, 403 for a
 * role outside the policy, and "authorized" (any answer but 401, 403 and 5xx: inputs here are
 * empty, so many are 400s) otherwise. Another workspace's owner is authorized in their own
 * workspace and sees nothing of A (ids of A's records never appear); answers to A's ids are the
 * isolation suite's (workspace-isolation.test.ts).
 */
type Cell = 401 | 403 | 'authorized' | `${number} (server error)`;

const SESSION_ROLE: Partial<Record<Credential, Role>> = { viewer: 'viewer', developer: 'developer', admin: 'admin', owner: 'owner', otherOwner: 'owner' };

function expected(policy: Policy | 'public' | 'session' | 'metricsToken', credential: Credential): Cell {
  if (policy === 'public') return 'authorized';
  if (policy === 'metricsToken') return 401;
  const role = SESSION_ROLE[credential];
  if (!role) return 401;
  if (policy === 'session') return 'authorized';
  return POLICY_ROLES[policy].includes(role) ? 'authorized' : 403;
}

type Answer = { status: number; body: unknown };

const cellOf = (status: number): Cell => (status >= 500 ? `${status} (server error)` : status === 401 || status === 403 ? status : 'authorized');

const procedures = trpcProcedures(appRouter);

describe('control-plane security matrix', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let creds: SeededCredentials;
  /** Everything that names workspace A: its id, its members and one record of each kind. */
  let aIds: string[];
  /** Each row's answers, asked for all at once (a bounded number in flight) as soon as the data is seeded. */
  const answers = new Map<string, () => Promise<Record<Credential, Answer>>>();

  const restRoutes = Object.entries(REST_ROUTES).filter(([route]) => route !== 'post /api/auth/logout');
  const restCall = (route: string) => (headers: Record<string, string>) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const path = pattern.replace(/:(\w+)/g, (_m, name: string) => (name === 'name' ? 'not-a-secret' : `zz_missing_${name}`));
    return jsonRequest(`${cp.url}${path}`, { method: method.toUpperCase(), headers, ...(method === 'get' ? {} : { body: {} }) });
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // With a metrics token configured, no operator credential may stand in for it.
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}`, MOS_METRICS_TOKEN: 'm'.repeat(40) } });
    cp = await listen(createControlPlaneApp(deps));
    creds = await seedCredentials(deps);
    const entities = await seedWorkspaceEntities(deps, creds.a.owner);
    aIds = [creds.a.owner.workspaceId, ...Object.values(creds.a).map((op) => op.memberId), ...Object.values(entities)];
    const run = limiter(16);
    const ask = (key: string, call: (headers: Record<string, string>) => Promise<Answer>) =>
      answers.set(
        key,
        settleLater(
          Promise.all(CREDENTIALS.map(async (c) => [c, await run(() => call(creds.headers[c]))] as const)).then(
            (row) => Object.fromEntries(row) as Record<Credential, Answer>,
          ),
        ),
      );
    for (const procedure of procedures) ask(procedure.path, (headers) => trpcCall(cp.url, procedure, {}, headers));
    for (const [route] of restRoutes) ask(route, restCall(route));
  }, 60_000);
  afterAll(async () => {
    await cp?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  /** The row of cells for a key; B's answers must not name anything of A's. */
  async function row(key: string) {
    const got = await answers.get(key)!();
    const leaked = aIds.filter((id) => JSON.stringify(got.otherOwner.body).includes(id));
    expect(leaked, "another workspace's owner sees none of A's ids").toEqual([]);
    return Object.fromEntries(CREDENTIALS.map((c) => [c, cellOf(got[c].status)]));
  }

  it('classifies every procedure, and only procedures that exist', () => {
    expect(procedures.map((p) => p.path).filter((p) => !(p in PROCEDURE_POLICY))).toEqual([]);
    expect(Object.keys(PROCEDURE_POLICY).filter((p) => !procedures.some((d) => d.path === p))).toEqual([]);
  });

  it('maps every REST route, and only routes that exist', () => {
    const routes = expressRoutes(createControlPlaneApp(deps)).map((r) => `${r.method} ${r.path}`);
    expect(routes.filter((r) => !(r in REST_ROUTES))).toEqual([]);
    expect(Object.keys(REST_ROUTES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  describe('tRPC /trpc', () => {
    it.each(procedures.map((p) => [p.path, p] as const))('%s', async (_path, procedure) => {
      const policy = PROCEDURE_POLICY[procedure.path];
      expect(policy, `${procedure.path} needs a policy`).toBeDefined();
      expect(await row(procedure.path)).toEqual(Object.fromEntries(CREDENTIALS.map((c) => [c, expected(policy!, c)])));
    });
  });

  describe('REST /api', () => {
    it.each(restRoutes)('%s', async (route, target) => {
      const policy =
        'procedure' in target ? PROCEDURE_POLICY[target.procedure]! : 'public' in target ? 'public' : 'session' in target ? 'session' : 'metricsToken';
      expect(await row(route)).toEqual(Object.fromEntries(CREDENTIALS.map((c) => [c, expected(policy, c)])));
    });

    // Sign-out ends the session it is called with: last, with new sessions of its own.
    it('post /api/auth/logout', async () => {
      const fresh = await withFreshSessions(deps, creds);
      const call = restCall('post /api/auth/logout');
      const cells = Object.fromEntries(await Promise.all(CREDENTIALS.map(async (c) => [c, cellOf((await call(fresh[c])).status)] as const)));
      expect(cells).toEqual(Object.fromEntries(CREDENTIALS.map((c) => [c, expected('session', c)])));
    });
  });
});
