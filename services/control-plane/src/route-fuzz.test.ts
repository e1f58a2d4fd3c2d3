import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@mos/core';
import { createSession } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import {
  appErrorShapeProblem,
  baselineCase,
  countRows,
  expressRoutes,
  fuzzRoutes,
  judge,
  listen,
  restCases,
  sendCase,
  type DiscoveredRoute,
} from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/**
 * Every REST route of the control plane (walked from its router) gets hostile path ids, query
 * strings, bodies and headers from a workspace owner: each answer is a 4xx in the
 * `{error, message?, issues?}` shape (a 2xx only where the route accepts its plain `{}`
 * baseline too), never a 5xx or leaked internals; a refused write stores nothing; and the
 * process still answers /health. The tRPC surface has its own fuzzer (trpc-fuzz.test.ts).
 */
describe('route fuzzer: control-plane REST', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  let routes: DiscoveredRoute[];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    const app = createControlPlaneApp(deps);
    cp = await listen(app);
    owner = await seedOperator(deps, { role: 'owner' });
    routes = expressRoutes(app);
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  /** A fresh owner session, straight in the store (signing in hashes a password: slow, and not under test here). */
  async function mintSession(): Promise<string> {
    const token = `mos_sess_${randomBytes(24).toString('hex')}`;
    await createSession(deps.db, owner.workspaceId, { memberId: owner.memberId, tokenHash: sha256Hex(token), now: deps.clock.now() });
    return token;
  }

  it('discovers the routes from the router, with parameters and every method', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    expect(listed).toEqual(expect.arrayContaining(['get /health', 'post /api/auth/login', 'post /api/auth/logout']));
    expect(routes.filter((r) => r.path.includes('/:')).length).toBeGreaterThan(5);
    expect(new Set(routes.map((r) => r.method))).toEqual(new Set(['get', 'post', 'put', 'patch', 'delete']));
  });

  it('answers every hostile request to every route in its error shape, never a 5xx, and keeps its data', { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    const endedSession: string[] = [];
    let sent = 0;

    await fuzzRoutes(routes, 4, async (route) => {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      // Each route its own session: one that signs out ends only its own.
      const auth = { authorization: `Bearer ${await mintSession()}` };
      const baseline = await sendCase(cp.url, baselineCase(route, auth));
      const baselineAccepted = baseline.status >= 200 && baseline.status < 300;
      const before = await countRows(tdb.pool);
      let accepted = false;
      for (const c of restCases(route, { auth, bodyLimit: 1024 * 1024, random: 1 })) {
        const answer = await sendCase(cp.url, c);
        sent++;
        accepted ||= answer.status >= 200 && answer.status < 300;
        const problem = judge(c, answer, { accepts: () => baselineAccepted, baselineAccepted, shape: (a) => appErrorShapeProblem(a) });
        if (problem) problems.push(`${name} [${c.name}]: ${problem}`);
      }
      if (!accepted && route.method !== 'get') {
        const after = await countRows(tdb.pool);
        if (JSON.stringify(after) !== JSON.stringify(before))
          problems.push(`${name}: refused requests changed stored rows ${JSON.stringify({ before, after })}`);
      }
      if ((await fetch(`${cp.url}/api/me`, { headers: auth })).status === 401) endedSession.push(name);
    });

    expect(problems).toEqual([]);
    // Signing out is the one thing that may end the caller's session.
    expect(endedSession).toEqual(['POST /api/auth/logout']);
    expect(sent).toBeGreaterThan(routes.length * 15);
    expect((await fetch(`${cp.url}/health`)).status).toBe(200);
  });
});
