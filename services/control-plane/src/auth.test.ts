import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sha256Hex } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { sessions } from '@mos/db';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { removeMember } from '@mos/app';
import { fixedClock, seedOperator, testDeps } from '@mos/app/testing';
import { createApiApp } from '@mos/api';
import { createControlPlaneApp } from './app';

describe('operator login and sessions', () => {
  let tdb: TestDatabase;
  const clock = fixedClock(new Date('2026-03-01T09:00:00Z'));
  let cp: Awaited<ReturnType<typeof listen>>;
  let api: Awaited<ReturnType<typeof listen>>;
  let deps: ReturnType<typeof testDeps>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { clock });
    cp = await listen(createControlPlaneApp(deps));
    api = await listen(createApiApp(deps));
  });
  afterAll(async () => {
    await cp?.close();
    await api?.close();
    await tdb?.drop();
  });

  it('signs in with the spec body, an httpOnly cookie, and stores only a token hash', async () => {
    const op = await seedOperator(deps, { role: 'developer' });
    const res = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: op.email, password: op.password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessionToken: expect.stringMatching(/^mos_sess_[\w-]{43}$/),
      expiresAt: new Date(clock.now().getTime() + SESSION_IDLE_MS).toISOString(),
      role: 'developer',
      workspace: { id: op.workspaceId, slug: op.workspaceSlug },
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^mos_session=mos_sess_/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const rows = await tdb.db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === sha256Hex(res.body.sessionToken))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(res.body.sessionToken);
  });

  it('accepts the cookie and the bearer token on both apps', async () => {
    const op = await seedOperator(deps, { role: 'viewer' });
    const viaBearer = await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.email).toBe(op.email);
    const viaCookie = await jsonRequest(`${cp.url}/api/me`, { headers: { cookie: `mos_session=${op.token}` } });
    expect(viaCookie.status).toBe(200);
    // The API app's /internal guard accepts the same session (an unknown path then 404s, not 401s).
    expect((await jsonRequest(`${api.url}/internal/nothing-here`, { headers: bearer(op.token) })).status).toBe(404);
    expect((await jsonRequest(`${api.url}/internal/nothing-here`, { headers: { cookie: `mos_session=${op.token}` } })).status).toBe(404);
    expect(await jsonRequest(`${api.url}/internal/nothing-here`)).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
  });

  it('answers 401 unauthenticated alike for a wrong password and an unknown email', async () => {
    const op = await seedOperator(deps);
    const wrong = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: op.email, password: 'not-the-password' } });
    const unknown = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: 'nobody@nowhere.test', password: 'whatever-it-is' } });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'unauthenticated', message: 'Invalid email or password' } });
    expect(unknown).toMatchObject({ status: 401, body: wrong.body });
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('spends the same argon2 work on an unknown email as on a wrong password', async () => {
    const op = await seedOperator(deps);
    const time = async (email: string) => {
      const t = performance.now();
      await jsonRequest(`${cp.url}/api/auth/login`, { body: { email, password: 'not-the-password' } });
      return performance.now() - t;
    };
    await time(op.email); // warm the dummy hash
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) {
      wrong.push(await time(op.email));
      unknown.push(await time(`ghost${i}@nowhere.test`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // A skipped verification would make unknown emails 10x+ faster than an argon2 check;
    // the band is wide so two busy cores do not make it flaky.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.33);
    expect(median(unknown) / median(wrong)).toBeLessThan(3);
  });

  it('rejects bad login bodies with 400 invalid_request', async () => {
    const res = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: 'not-an-email' } });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const raw = await fetch(`${cp.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('expires a session after one hour of inactivity, enforced server side', async () => {
    const op = await seedOperator(deps);
    clock.advance(SESSION_IDLE_MS - 1000);
    expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).status).toBe(200);
    clock.advance(SESSION_IDLE_MS - 1000); // used just above, so still inside the window
    expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).status).toBe(200);
    clock.advance(SESSION_IDLE_MS);
    expect(await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
  });

  it('expires a session eight hours after sign-in even when it is used constantly', async () => {
    const op = await seedOperator(deps);
    const steps = Math.floor(SESSION_ABSOLUTE_MS / (SESSION_IDLE_MS / 2));
    for (let i = 1; i < steps; i++) {
      clock.advance(SESSION_IDLE_MS / 2);
      expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).status).toBe(200);
    }
    clock.advance(SESSION_IDLE_MS / 2);
    expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).status).toBe(401);
  });

  it('revokes every session of a removed member at once', async () => {
    const owner = await seedOperator(deps, { role: 'owner' });
    const dev = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
    const second = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: dev.email, password: dev.password } });
    for (const token of [dev.token, second.body.sessionToken]) {
      expect((await jsonRequest(`${api.url}/internal/x`, { headers: bearer(token) })).status).toBe(404);
    }
    await removeMember(deps, { workspaceId: owner.workspaceId, actorId: owner.memberId, role: owner.role }, dev.memberId);
    for (const token of [dev.token, second.body.sessionToken]) {
      expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(token) })).status).toBe(401);
      expect((await jsonRequest(`${api.url}/internal/x`, { headers: bearer(token) })).status).toBe(401);
    }
    expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(owner.token) })).status).toBe(200);
  });

  it('logs out: the token stops working and the cookie is cleared', async () => {
    const op = await seedOperator(deps);
    const out = await jsonRequest(`${cp.url}/api/auth/logout`, { method: 'POST', headers: bearer(op.token) });
    expect(out).toMatchObject({ status: 200, body: { ok: true } });
    expect(out.headers.get('set-cookie')).toMatch(/mos_session=;/);
    expect((await jsonRequest(`${cp.url}/api/me`, { headers: bearer(op.token) })).status).toBe(401);
    expect((await jsonRequest(`${cp.url}/api/auth/logout`, { method: 'POST', headers: bearer(op.token) })).status).toBe(401);
  });

  it('asks for the workspace when one email signs into several with the same password', async () => {
    const a = await seedOperator(deps, { email: 'shared@multi.test' });
    const { upsertWorkspace, upsertMember } = await import('@mos/db');
    const { hashPassword } = await import('@mos/app');
    const { workspace } = await upsertWorkspace(deps.db, 'second-ws');
    await upsertMember(deps.db, workspace.id, { email: 'shared@multi.test', passwordHash: await hashPassword(a.password), role: 'viewer' });
    const ambiguous = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: a.email, password: a.password } });
    expect(ambiguous).toMatchObject({ status: 400, body: { error: 'workspace_required' } });
    const chosen = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: a.email, password: a.password, workspace: 'second-ws' } });
    expect(chosen).toMatchObject({ status: 200, body: { role: 'viewer', workspace: { slug: 'second-ws' } } });
  });
});
