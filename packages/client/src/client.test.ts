import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { seedOperator, testDeps } from '@mos/app/testing';
import { createControlPlaneApp } from '@mos/control-plane';
import { createMosClient, type AppRouter } from './index';

const unexpected = (): never => {
  throw new Error('expected the call to fail');
};
const asClientError = (e: unknown) => e as TRPCClientError<AppRouter>;

describe('createMosClient against the running control plane', () => {
  let tdb: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    server = await listen(createControlPlaneApp(testDeps(tdb.db)));
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  it('calls typed procedures with a session token', async () => {
    const op = await seedOperator(testDeps(tdb.db), { role: 'admin' });
    const client = createMosClient({ url: server.url, token: op.token });
    const me = await client.auth.me.query();
    expect(me).toMatchObject({ email: op.email, role: 'admin', workspace: { id: op.workspaceId, slug: op.workspaceSlug } });
    const added = await client.members.add.mutate({ email: 'new@client.test', password: 'client-password-1', role: 'viewer' });
    expect(added).toMatchObject({ email: 'new@client.test', role: 'viewer' });
    const { members } = await client.members.list.query();
    expect(members.map((m) => m.email).sort()).toEqual([op.email, 'new@client.test'].sort());
  });

  it('surfaces our error codes on the client', async () => {
    const viewer = await seedOperator(testDeps(tdb.db), { role: 'viewer' });
    const err = await createMosClient({ url: server.url, token: viewer.token })
      .members.add.mutate({ email: 'x@client.test', password: 'client-password-1', role: 'viewer' })
      .then(unexpected, asClientError);
    expect(err).toBeInstanceOf(TRPCClientError);
    const e = err as TRPCClientError<AppRouter>;
    expect(e.data?.code).toBe('FORBIDDEN');
    expect(e.data?.httpStatus).toBe(403);
    expect(e.data?.appCode).toBe('forbidden');

    const anon = await createMosClient({ url: server.url }).auth.me.query().then(unexpected, asClientError);
    expect(anon.data?.httpStatus).toBe(401);
    expect(anon.data?.appCode).toBe('unauthenticated');

    const bad = await createMosClient({ url: server.url, token: viewer.token })
      .members.add.mutate({ email: 'nope', password: 'x', role: 'viewer' })
      .then(unexpected, asClientError);
    // The role check runs before input validation.
    expect(bad.data?.httpStatus).toBe(403);
    expect(bad.data?.appCode).toBe('forbidden');

    const admin = await seedOperator(testDeps(tdb.db), { role: 'admin' });
    const invalid = await createMosClient({ url: server.url, token: admin.token })
      .members.add.mutate({ email: 'nope', password: 'x', role: 'viewer' })
      .then(unexpected, asClientError);
    expect(invalid.data?.httpStatus).toBe(400);
    expect(invalid.data?.appCode).toBe('invalid_request');
    expect((invalid.data?.issues as { path: string[] }[]).map((i) => i.path[0]).sort()).toEqual(['email', 'password']);
  });
});
