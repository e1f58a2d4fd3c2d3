import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/**
 * Each role against each settings route. `allowed` lists the roles that pass the role
 * check; every other role must get 403 forbidden before anything else happens, and an
 * anonymous call 401 unauthenticated.
 */
const ROUTES: { name: string; method: string; path: (o: Ctx) => string; body?: (o: Ctx) => unknown; allowed: Role[] }[] = [
  { name: 'list members', method: 'GET', path: () => '/api/members', allowed: ['owner', 'admin', 'developer', 'viewer'] },
  {
    name: 'add member',
    method: 'POST',
    path: () => '/api/members',
    body: (o) => ({ email: `new-${o.role}-${Math.random()}@x.test`, password: 'long-enough-password', role: 'viewer' }),
    allowed: ['owner', 'admin'],
  },
  { name: 'change role', method: 'PATCH', path: (o) => `/api/members/${o.target}`, body: () => ({ role: 'developer' }), allowed: ['owner', 'admin'] },
  { name: 'remove member', method: 'DELETE', path: (o) => `/api/members/${o.target}`, allowed: ['owner', 'admin'] },
  { name: 'list api keys', method: 'GET', path: () => '/api/api-keys', allowed: ['owner', 'admin', 'developer'] },
  { name: 'create api key', method: 'POST', path: () => '/api/api-keys', body: () => ({ name: 'ci' }), allowed: ['owner', 'admin', 'developer'] },
  { name: 'revoke api key', method: 'DELETE', path: () => '/api/api-keys/key_missing', allowed: ['owner', 'admin', 'developer'] },
  { name: 'list secrets', method: 'GET', path: () => '/api/secrets', allowed: ['owner', 'admin'] },
  { name: 'set secret', method: 'PUT', path: () => '/api/secrets/llm-api-key', body: () => ({ value: 'sk-test' }), allowed: ['owner', 'admin'] },
  { name: 'remove secret', method: 'DELETE', path: () => '/api/secrets/partner-webhook-secret', allowed: ['owner', 'admin'] },
  { name: 'get workspace settings', method: 'GET', path: () => '/api/workspace', allowed: ['owner', 'admin', 'developer'] },
  { name: 'update workspace settings', method: 'PATCH', path: () => '/api/workspace', body: () => ({ wabaId: '1234567890' }), allowed: ['owner', 'admin'] },
];

interface Ctx {
  role: Role;
  target: string;
}

describe('role matrix of the settings routes', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  const ops = {} as Record<Role, SeededOperator>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    const owner = await seedOperator(deps, { role: 'owner' });
    ops.owner = owner;
    for (const role of ROLES.filter((r) => r !== 'owner')) ops[role] = await seedOperator(deps, { workspace: owner.workspaceSlug, role });
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  for (const route of ROUTES) {
    it(`${route.name}: 401 without a session`, async () => {
      const res = await jsonRequest(`${cp.url}${route.path({ role: 'viewer', target: 'mem_x' })}`, {
        method: route.method,
        body: route.body?.({ role: 'viewer', target: 'mem_x' }),
      });
      expect(res).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    });
    for (const role of ROLES) {
      const allowed = route.allowed.includes(role);
      it(`${route.name}: ${role} ${allowed ? 'passes the role check' : 'gets 403 forbidden'}`, async () => {
        // Targets are throwaway members so removals never hit the seeded operators.
        const deps = testDeps(tdb.db);
        const target = (await seedOperator(deps, { workspace: ops.owner.workspaceSlug, role: 'viewer' })).memberId;
        const ctx = { role, target };
        const res = await jsonRequest(`${cp.url}${route.path(ctx)}`, { method: route.method, headers: bearer(ops[role].token), body: route.body?.(ctx) });
        if (allowed) {
          expect([200, 201, 404]).toContain(res.status);
          if (res.status === 404) expect(route.path(ctx)).toMatch(/missing|partner-webhook-secret/);
        } else {
          expect(res).toMatchObject({ status: 403, body: { error: 'forbidden' } });
        }
      });
    }
  }

  it('a forbidden call changes nothing (the role check runs first)', async () => {
    const before = await jsonRequest(`${cp.url}/api/members`, { headers: bearer(ops.owner.token) });
    const res = await jsonRequest(`${cp.url}/api/members`, {
      method: 'POST',
      headers: bearer(ops.developer.token),
      body: { email: 'sneaky@x.test', password: 'long-enough-password', role: 'owner' },
    });
    expect(res.status).toBe(403);
    const after = await jsonRequest(`${cp.url}/api/members`, { headers: bearer(ops.owner.token) });
    expect(after.body.members.map((m: { email: string }) => m.email)).not.toContain('sneaky@x.test');
    expect(after.body.members.length).toBe(before.body.members.length);
  });

  it('keeps at least one owner: the last owner cannot leave', async () => {
    const res = await jsonRequest(`${cp.url}/api/members/${ops.owner.memberId}`, { method: 'DELETE', headers: bearer(ops.owner.token) });
    expect(res).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('validates input through the procedure: 400 invalid_request with issues', async () => {
    const res = await jsonRequest(`${cp.url}/api/members`, {
      method: 'POST',
      headers: bearer(ops.owner.token),
      body: { email: 'x@y.test', password: 'short', role: 'emperor' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.issues.map((i: { path: string[] }) => i.path[0]).sort()).toEqual(['password', 'role']);
  });
});
