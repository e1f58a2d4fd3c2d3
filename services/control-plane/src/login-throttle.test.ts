import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

describe('login throttling', () => {
  let tdb: TestDatabase;
  let op: SeededOperator;
  const servers: Awaited<ReturnType<typeof listen>>[] = [];

  /** A fresh app (and so fresh counters) with these limits. */
  async function server(env: Record<string, string>) {
    const s = await listen(createControlPlaneApp(testDeps(tdb.db, { env })));
    servers.push(s);
    return (email: string, password: string) => jsonRequest(`${s.url}/api/auth/login`, { body: { email, password } });
  }

  beforeAll(async () => {
    tdb = await createTestDatabase();
    op = await seedOperator(testDeps(tdb.db), { email: 'throttled@example.test' });
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await tdb?.drop();
  });

  it('defaults to 10 failures per account and 50 per address in 15 minutes', () => {
    expect(testDeps(tdb.db).env).toMatchObject({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10, LOGIN_MAX_FAILURES_PER_ADDRESS: 50, LOGIN_FAILURE_WINDOW_SECONDS: 900 });
  });

  it('blocks an account after its failures, whatever the email case, with 429 rate_limited and Retry-After', async () => {
    const login = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
    const other = await seedOperator(testDeps(tdb.db));
    for (const email of [op.email, op.email.toUpperCase(), ` ${op.email}`]) expect((await login(email, 'wrong-password')).status).toBe(401);
    const blocked = await login(op.email, op.password);
    expect(blocked).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900).toBe(true);
    expect(blocked.headers.get('set-cookie')).toBeNull();
    // Another account from the same address is untouched.
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it("resets the account's count on a successful sign-in", async () => {
    const login = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
    const statuses = [];
    const passwords = ['wrong-1', 'wrong-2', op.password, 'wrong-3', 'wrong-4', op.password, 'wrong-5', 'wrong-6', 'wrong-7', op.password];
    for (const password of passwords) statuses.push((await login(op.email, password)).status);
    expect(statuses).toEqual([401, 401, 200, 401, 401, 200, 401, 401, 401, 429]);
  });

  it('throttles a client address across accounts, before any password work, unknown emails like known ones', async () => {
    const login = await server({ LOGIN_MAX_FAILURES_PER_ADDRESS: '4' });
    const timed = async (email: string, password: string) => {
      const t = performance.now();
      const res = await login(email, password);
      return { ...res, ms: performance.now() - t };
    };
    // Successful sign-ins give their attempt back.
    for (let i = 0; i < 5; i++) expect((await login(op.email, op.password)).status).toBe(200);
    const failures = [];
    for (let i = 0; i < 4; i++) failures.push(await timed(`ghost${i}@nowhere.test`, 'wrong-password'));
    expect(failures.map((f) => f.status)).toEqual([401, 401, 401, 401]);
    const known = await timed(op.email, op.password);
    const unknown = await timed('ghost-new@nowhere.test', 'wrong-password');
    expect(known).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(unknown).toMatchObject({ status: 429, body: known.body });
    expect(unknown.headers.get('retry-after')).toMatch(/^\d+$/);
    // A refused attempt costs no argon2 verification (each 401 above paid one).
    const slowestRefusal = Math.max(known.ms, unknown.ms);
    expect(slowestRefusal).toBeLessThan(Math.min(...failures.map((f) => f.ms)));
  });

  it('lifts the block when the window ends', async () => {
    const login = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '1', LOGIN_FAILURE_WINDOW_SECONDS: '1' });
    expect((await login(op.email, 'wrong-password')).status).toBe(401);
    const blocked = await login(op.email, op.password);
    expect(blocked).toMatchObject({ status: 429, headers: expect.anything() });
    expect(blocked.headers.get('retry-after')).toBe('1');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await login(op.email, op.password)).status).toBe(200);
  });
});
