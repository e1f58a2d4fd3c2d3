import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProviderIngressWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createMosClient } from '@mos/client';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/** No tenant surface can move the shared provider paths: that is `mos ingress set` only. */
describe('provider ingress is not a tenant setting', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  let victim: SeededOperator;
  let attacker: SeededOperator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    victim = await seedOperator(deps, { role: 'owner', providerIngress: true });
    attacker = await seedOperator(deps, { role: 'owner' });
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  it('PATCH /api/workspace with providerIngress is a 400 naming the field, and nothing moves', async () => {
    for (const value of [true, false, 'yes']) {
      const res = await jsonRequest(`${cp.url}/api/workspace`, {
        method: 'PATCH',
        headers: bearer(attacker.token),
        body: { providerIngress: value, wabaId: '1234567890' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(JSON.stringify(res.body.issues)).toContain('providerIngress');
    }
    expect((await findProviderIngressWorkspace(tdb.db))?.id).toBe(victim.workspaceId);
    // The refused request changed nothing else either.
    const after = await jsonRequest(`${cp.url}/api/workspace`, { headers: bearer(attacker.token) });
    expect(after.body.workspace).toMatchObject({ wabaId: null, providerIngress: false });
  });

  it('the tRPC procedure refuses it too', async () => {
    const client = createMosClient({ url: cp.url, token: attacker.token });
    await expect(client.workspace.update.mutate({ providerIngress: true } as never)).rejects.toMatchObject({ data: { appCode: 'invalid_request' } });
    expect((await findProviderIngressWorkspace(tdb.db))?.id).toBe(victim.workspaceId);
  });

  it('the field stays readable: the ingress workspace sees providerIngress true', async () => {
    const res = await jsonRequest(`${cp.url}/api/workspace`, { headers: bearer(victim.token) });
    expect(res.body.workspace.providerIngress).toBe(true);
  });
});
