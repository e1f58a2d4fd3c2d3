import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { startSimulator, type RunningSimulator } from '@mos/provider/simulator';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import type { AppDeps } from '@mos/app';
import { createControlPlaneApp } from './app';

const SETTINGS: Role[] = ['owner', 'admin', 'developer'];
const BODY = { type: 'BODY', text: 'Hi {{1}}, your order has shipped today.', example: { body_text: [['Ann']] } };

/**
 * Every template route against every role: settings roles pass the role check, the seed
 * route only owner/admin; everyone else 403 forbidden (and nothing changes), anonymous 401.
 * Each call gets a fresh draft so a mutation by one role never affects the next.
 */
const ROUTES: { name: string; method: string; path: (id: string) => string; body?: (id: string) => unknown; allowed: Role[]; ok: number }[] = [
  { name: 'list', method: 'GET', path: () => '/api/templates', allowed: SETTINGS, ok: 200 },
  {
    name: 'create',
    method: 'POST',
    path: () => '/api/templates',
    body: () => ({ name: `new_${Math.random().toString(36).slice(2)}` }),
    allowed: SETTINGS,
    ok: 200,
  },
  { name: 'get', method: 'GET', path: (id) => `/api/templates/${id}`, allowed: SETTINGS, ok: 200 },
  { name: 'update', method: 'PUT', path: (id) => `/api/templates/${id}`, body: () => ({ category: 'MARKETING' }), allowed: SETTINGS, ok: 200 },
  { name: 'delete', method: 'DELETE', path: (id) => `/api/templates/${id}`, allowed: SETTINGS, ok: 200 },
  { name: 'submit', method: 'POST', path: (id) => `/api/templates/${id}/submit`, allowed: SETTINGS, ok: 200 },
  { name: 'revise', method: 'POST', path: (id) => `/api/templates/${id}/revise`, allowed: SETTINGS, ok: 409 },
  { name: 'validate', method: 'POST', path: () => '/api/templates/validate', body: () => ({ name: 'x', components: [BODY] }), allowed: SETTINGS, ok: 200 },
  { name: 'seed starter pack', method: 'POST', path: () => '/api/templates/seed-starter-pack', allowed: ['owner', 'admin'], ok: 200 },
];

describe('role matrix of the template routes', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let cp: Awaited<ReturnType<typeof listen>>;
  let deps: AppDeps;
  const ops = {} as Record<Role, SeededOperator>;
  const draft = async () =>
    (
      await jsonRequest(`${cp.url}/api/templates`, {
        method: 'POST',
        headers: bearer(ops.owner.token),
        body: { name: `d_${Math.random().toString(36).slice(2)}`, components: [BODY] },
      })
    ).body.template.id as string;
  const count = async () => (await jsonRequest(`${cp.url}/api/templates`, { headers: bearer(ops.owner.token) })).body.templates.length;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    sim = await startSimulator({ accessToken: 'tok' });
    deps = testDeps(tdb.db, { env: { PROVIDER_BASE_URL: sim.url } });
    cp = await listen(createControlPlaneApp(deps));
    ops.owner = await seedOperator(deps, { role: 'owner', wabaId: '1234567' });
    await deps.vault.set(tdb.db, ops.owner.workspaceId, 'provider-access-token', 'tok');
    for (const role of ROLES.filter((r) => r !== 'owner')) ops[role] = await seedOperator(deps, { workspace: ops.owner.workspaceSlug, role });
  });
  afterAll(async () => {
    await cp?.close();
    await sim?.close();
    await tdb?.drop();
  });

  for (const route of ROUTES) {
    it(`${route.name}: 401 without a session`, async () => {
      const res = await jsonRequest(`${cp.url}${route.path('tpl_x')}`, { method: route.method, body: route.body?.('tpl_x') });
      expect(res).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    });
    for (const role of ROLES) {
      const allowed = route.allowed.includes(role);
      it(`${route.name}: ${role} ${allowed ? `gets ${route.ok}` : 'gets 403 forbidden'}`, async () => {
        const id = await draft();
        const before = await count();
        const res = await jsonRequest(`${cp.url}${route.path(id)}`, { method: route.method, headers: bearer(ops[role].token), body: route.body?.(id) });
        if (allowed) {
          expect(res.status, JSON.stringify(res.body)).toBe(route.ok);
        } else {
          expect(res).toMatchObject({ status: 403, body: { error: 'forbidden' } });
          expect(await count()).toBe(before);
          const row = (await jsonRequest(`${cp.url}/api/templates/${id}`, { headers: bearer(ops.owner.token) })).body.template;
          expect(row).toMatchObject({ status: 'draft', category: 'UTILITY' });
        }
      });
    }
  }
});
