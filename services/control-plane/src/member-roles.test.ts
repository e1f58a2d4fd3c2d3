import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@mos/core';
import { listMembers, updateMemberRole } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/**
 * The role ladder over real HTTP: every (actor role, target role, new role) through PATCH
 * /api/members/:id. Written out as literal grids (not derived from the rule) so the rule
 * cannot grade itself. Rows: target's current role; columns: new role (owner, admin,
 * developer, viewer). 1 = 200, 0 = 403 forbidden.
 */
const GRID: Record<Role, Record<Role, [number, number, number, number]>> = {
  owner: { owner: [1, 1, 1, 1], admin: [1, 1, 1, 1], developer: [1, 1, 1, 1], viewer: [1, 1, 1, 1] },
  admin: { owner: [0, 0, 0, 0], admin: [0, 0, 0, 0], developer: [0, 0, 1, 1], viewer: [0, 0, 1, 1] },
  // Developers and viewers fail the procedure's role check before any rule applies.
  developer: { owner: [0, 0, 0, 0], admin: [0, 0, 0, 0], developer: [0, 0, 0, 0], viewer: [0, 0, 0, 0] },
  viewer: { owner: [0, 0, 0, 0], admin: [0, 0, 0, 0], developer: [0, 0, 0, 0], viewer: [0, 0, 0, 0] },
};

describe('member role ladder', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  let deps: ReturnType<typeof testDeps>;
  // One workspace per actor role, each with a spare owner so demotions never hit the last-owner rule.
  const actors = {} as Record<Role, SeededOperator>;
  const targets = {} as Record<Role, Record<Role, SeededOperator>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    for (const actorRole of ROLES) {
      actors[actorRole] = await seedOperator(deps, { role: actorRole });
      const ws = actors[actorRole].workspaceSlug;
      if (actorRole !== 'owner') await seedOperator(deps, { workspace: ws, role: 'owner' });
      targets[actorRole] = {} as Record<Role, SeededOperator>;
      for (const targetRole of ROLES) targets[actorRole][targetRole] = await seedOperator(deps, { workspace: ws, role: targetRole });
    }
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  for (const actorRole of ROLES) {
    for (const targetRole of ROLES) {
      ROLES.forEach((newRole, i) => {
        const allowed = GRID[actorRole][targetRole][i] === 1;
        it(`${actorRole} sets a ${targetRole} to ${newRole}: ${allowed ? '200' : '403'}`, async () => {
          const actor = actors[actorRole];
          const target = targets[actorRole][targetRole];
          const res = await jsonRequest(`${cp.url}/api/members/${target.memberId}`, { method: 'PATCH', headers: bearer(actor.token), body: { role: newRole } });
          const stored = (await listMembers(deps.db, actor.workspaceId)).find((m) => m.id === target.memberId)!.role;
          // Restore for the next case before asserting.
          await updateMemberRole(deps.db, actor.workspaceId, target.memberId, targetRole);
          if (allowed) {
            expect(res).toMatchObject({ status: 200, body: { member: { id: target.memberId, role: newRole } } });
            expect(stored).toBe(newRole);
          } else {
            expect(res).toMatchObject({ status: 403, body: { error: 'forbidden' } });
            expect(stored).toBe(targetRole);
          }
        });
      });
    }
  }

  for (const role of ROLES) {
    it(`a ${role} cannot change their own role, not even to the same one`, async () => {
      const actor = actors[role];
      for (const newRole of ROLES) {
        const res = await jsonRequest(`${cp.url}/api/members/${actor.memberId}`, { method: 'PATCH', headers: bearer(actor.token), body: { role: newRole } });
        expect(res).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      }
      expect((await listMembers(deps.db, actor.workspaceId)).find((m) => m.id === actor.memberId)!.role).toBe(role);
    });
  }

  it('an admin adds developers and viewers only; an owner adds any role', async () => {
    const add = (actor: SeededOperator, role: Role) =>
      jsonRequest(`${cp.url}/api/members`, {
        headers: bearer(actor.token),
        body: { email: `${role}-${Math.random()}@add.test`, password: 'long-enough-password', role },
      });
    for (const role of ROLES) {
      expect((await add(actors.admin, role)).status).toBe(role === 'developer' || role === 'viewer' ? 201 : 403);
      expect((await add(actors.owner, role)).status).toBe(201);
    }
  });

  it('an admin removes developers and viewers, never owners or other admins; leaving is allowed', async () => {
    const ws = actors.admin.workspaceSlug;
    const remove = (actor: SeededOperator, id: string) => jsonRequest(`${cp.url}/api/members/${id}`, { method: 'DELETE', headers: bearer(actor.token) });
    for (const role of ROLES) {
      const victim = await seedOperator(deps, { workspace: ws, role });
      const res = await remove(actors.admin, victim.memberId);
      expect(res.status, role).toBe(role === 'developer' || role === 'viewer' ? 200 : 403);
    }
    const leaving = await seedOperator(deps, { workspace: ws, role: 'admin' });
    expect((await remove(leaving, leaving.memberId)).status).toBe(200);
  });

  it('two owners demoting each other at once: one wins, the other is judged by its new role (403), one owner stays', async () => {
    const a = await seedOperator(deps, { role: 'owner' });
    const b = await seedOperator(deps, { workspace: a.workspaceSlug, role: 'owner' });
    const [ra, rb] = await Promise.all([
      jsonRequest(`${cp.url}/api/members/${b.memberId}`, { method: 'PATCH', headers: bearer(a.token), body: { role: 'admin' } }),
      jsonRequest(`${cp.url}/api/members/${a.memberId}`, { method: 'PATCH', headers: bearer(b.token), body: { role: 'admin' } }),
    ]);
    const owners = (await listMembers(deps.db, a.workspaceId)).filter((m) => m.role === 'owner');
    expect(owners).toHaveLength(1);
    // The loser's request is judged under the lock by its role as it is now (admin), not as its session saw it.
    expect([ra.status, rb.status].sort()).toEqual([200, 403]);
  });

  it('concurrent adds of one email: one 201, the others 409, and the first password still signs in', async () => {
    const owner = actors.owner;
    const email = `race-${Math.random()}@add.test`;
    const results = await Promise.all(
      ['password-one-long', 'password-two-long', 'password-three-long'].map((password) =>
        jsonRequest(`${cp.url}/api/members`, { headers: bearer(owner.token), body: { email, password, role: 'viewer' } }).then((r) => ({
          password,
          status: r.status,
        })),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const winner = results.find((r) => r.status === 201)!;
    const login = await jsonRequest(`${cp.url}/api/auth/login`, { body: { email, password: winner.password, workspace: owner.workspaceSlug } });
    expect(login.status).toBe(200);
  });
});
