import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@mos/core';
import { createSession } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import {
  countRows,
  fieldsOf,
  eachInLanes,
  inputSchemaOf,
  judge,
  listen,
  procedureAccepts,
  sendCase,
  trpcBaseline,
  trpcCases,
  trpcPathCases,
  trpcProcedures,
  trpcShapeProblem,
} from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { appRouter } from '@mos/trpc';
import { createControlPlaneApp } from './app';
import { TRPC_MAX_BODY_BYTES } from './trpc-http';

const LANES = 4;

/**
 * Every tRPC procedure (enumerated from the AppRouter) is called by a workspace owner with
 * hostile inputs: malformed, undecodable, repeated and oversized query inputs, wrong-typed,
 * NUL-carrying, deeply nested and random values, and every hostile body and header. Each
 * answer is a 4xx in tRPC's envelope with our code in data.appCode (a 2xx only when the
 * procedure's own parser accepts the input), never a 5xx or a stack; a refused mutation
 * stores nothing; and the process still answers /health.
 */
describe('route fuzzer: control-plane tRPC', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  /** One owner per lane, each in a workspace of its own, so each lane's row counts are its own. */
  let owners: SeededOperator[];
  const procedures = trpcProcedures(appRouter);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    owners = [];
    for (let i = 0; i < LANES; i++) owners.push(await seedOperator(deps, { role: 'owner' }));
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  /** A fresh session for this owner, straight in the store (signing in hashes a password: slow, and not under test here). */
  async function mintSession(owner: SeededOperator): Promise<Record<string, string>> {
    const token = `mos_sess_${randomBytes(24).toString('hex')}`;
    await createSession(deps.db, owner.workspaceId, { memberId: owner.memberId, tokenHash: sha256Hex(token), now: deps.clock.now() });
    return { authorization: `Bearer ${token}` };
  }

  it('enumerates every procedure of every feature router, with the input schema the generators aim at', () => {
    const features = Object.keys((appRouter._def as unknown as { record: object }).record);
    expect(features.length).toBeGreaterThan(10);
    expect(features.filter((f) => !procedures.some((p) => p.path.startsWith(`${f}.`)))).toEqual([]);
    expect(procedures.filter((p) => p.type !== 'query' && p.type !== 'mutation').map((p) => p.path)).toEqual([]);
    // Wrong-typed fields are aimed at the real ones: every zod input has a JSON Schema with fields.
    const blind = procedures.filter((p) => p.inputs.length > 0 && fieldsOf(inputSchemaOf(p)).every(([name]) => name === 'fuzz'));
    expect(blind.map((p) => p.path)).toEqual([]);
  });

  it('answers every hostile call of every procedure in the tRPC error envelope, never a 5xx, and keeps its data', { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    let sent = 0;
    const shape = trpcShapeProblem;
    const auths = await Promise.all(owners.map(mintSession));

    for (const c of trpcPathCases(auths[0]!)) {
      const problem = judge(c, await sendCase(cp.url, c), { accepts: () => false, baselineAccepted: false, shape });
      if (problem) problems.push(`[${c.name}]: ${problem}`);
    }

    await eachInLanes(procedures, LANES, async (proc, lane) => {
      const auth = auths[lane]!;
      const baseline = await sendCase(cp.url, trpcBaseline(proc, auth));
      const baselineAccepted = baseline.status >= 200 && baseline.status < 300;
      const before = await countRows(tdb.pool, owners[lane]!.workspaceId);
      let accepted = false;
      for (const c of trpcCases(proc, { auth, bodyLimit: TRPC_MAX_BODY_BYTES, random: 1 })) {
        const answer = await sendCase(cp.url, c);
        sent++;
        accepted ||= answer.status >= 200 && answer.status < 300;
        const problem = judge(c, answer, { accepts: (value) => procedureAccepts(proc, value), baselineAccepted, shape });
        if (problem) problems.push(`${proc.path} [${c.name}]: ${problem}`);
      }
      if (!accepted && proc.type === 'mutation') {
        const after = await countRows(tdb.pool, owners[lane]!.workspaceId);
        if (JSON.stringify(after) !== JSON.stringify(before))
          problems.push(`${proc.path}: refused calls changed stored rows ${JSON.stringify({ before, after })}`);
      }
    });

    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(procedures.length * 15);
    expect((await fetch(`${cp.url}/trpc/auth.me`, { headers: auths[0] })).status).toBe(200);
    expect((await fetch(`${cp.url}/health`)).status).toBe(200);
  });
});
