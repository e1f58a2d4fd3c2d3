import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, setProviderIngressWorkspace, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import type { AppDeps } from '../deps';
import { testDeps } from '../testing/index';
import { createIngressResolver } from './ingress-target';

/**
 * The ingress's workspace + secret cache, over a real database and vault: the cache is
 * observed through configuration changes it must (or must not) see, with a driven clock.
 */
describe('createIngressResolver', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let t = 0;
  const now = () => t;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
  });
  afterAll(async () => tdb?.drop());

  it('null while nothing is configured, and that answer is not cached', async () => {
    const resolver = createIngressResolver(deps, 5_000, now);
    expect(await resolver.resolve()).toBeNull();
    const { workspace } = await upsertWorkspace(deps.db, 'ingress-first');
    await setProviderIngressWorkspace(deps.db, workspace.id);
    // Same instant: configuring ingress takes effect at once.
    expect(await resolver.resolve()).toMatchObject({ workspaceId: workspace.id });
  });

  it('serves the cached workspace and secret within the TTL, re-reads after it', async () => {
    const { workspace } = await upsertWorkspace(deps.db, 'ingress-cached');
    await setProviderIngressWorkspace(deps.db, workspace.id);
    await deps.vault.set(deps.db, workspace.id, 'webhook-signing-secret', 'old-secret');
    const resolver = createIngressResolver(deps, 5_000, now);
    t = 1_000;
    expect(await resolver.resolve()).toEqual({ workspaceId: workspace.id, signingSecret: 'old-secret', verifyToken: undefined });

    await deps.vault.set(deps.db, workspace.id, 'webhook-signing-secret', 'rotated-secret');
    t = 5_999;
    expect((await resolver.resolve())?.signingSecret).toBe('old-secret');
    t = 6_000;
    expect((await resolver.resolve())?.signingSecret).toBe('rotated-secret');

    // invalidate() drops the cache at once.
    await deps.vault.set(deps.db, workspace.id, 'webhook-signing-secret', 'third-secret');
    expect((await resolver.resolve())?.signingSecret).toBe('rotated-secret');
    resolver.invalidate();
    expect((await resolver.resolve())?.signingSecret).toBe('third-secret');
  });

  it('concurrent misses share one lookup; TTL 0 never caches', async () => {
    // Counts secret decryptions through the real vault (two per lookup: signing secret, verify token).
    let lookups = 0;
    const counted: AppDeps = { ...deps, vault: { ...deps.vault, get: (...a) => (lookups++, deps.vault.get(...a)) } };
    const resolver = createIngressResolver(counted, 5_000, now);
    t = 100_000;
    const targets = await Promise.all([resolver.resolve(), resolver.resolve(), resolver.resolve()]);
    expect(lookups).toBe(2);
    expect(new Set(targets.map((x) => x?.signingSecret)).size).toBe(1);
    await resolver.resolve();
    expect(lookups).toBe(2);
    const target = targets[0];

    const uncached = createIngressResolver(deps, 0, now);
    expect(await uncached.resolve()).toEqual(target);
    await deps.vault.set(deps.db, target!.workspaceId, 'webhook-signing-secret', 'fourth-secret');
    expect((await uncached.resolve())?.signingSecret).toBe('fourth-secret');
  });

  it('a failed lookup throws and is not cached', async () => {
    const dead = createDatabase('postgres://mos@127.0.0.1:1/none', { max: 1 });
    try {
      const resolver = createIngressResolver({ ...deps, db: dead.db }, 5_000, now);
      await expect(resolver.resolve()).rejects.toThrow();
      await expect(resolver.resolve()).rejects.toThrow();
    } finally {
      await dead.close();
    }
  });
});

describe('createIngressResolver: per-workspace routes', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
  });
  afterAll(async () => tdb?.drop());

  it('a slug resolves to its own workspace and secrets, whoever holds the shared mark', async () => {
    const { workspace: marked } = await upsertWorkspace(deps.db, 'marked');
    await setProviderIngressWorkspace(deps.db, marked.id);
    const { workspace: tenant } = await upsertWorkspace(deps.db, 'tenant');
    await deps.vault.set(deps.db, tenant.id, 'webhook-signing-secret', 'tenant-secret');
    await deps.vault.set(deps.db, tenant.id, 'provider-verify-token', 'tenant-token');
    const resolver = createIngressResolver(deps, 5_000);
    expect(await resolver.resolve({ kind: 'slug', slug: 'tenant' })).toEqual({
      workspaceId: tenant.id,
      signingSecret: 'tenant-secret',
      verifyToken: 'tenant-token',
    });
    expect((await resolver.resolve())?.workspaceId).toBe(marked.id);
    expect((await resolver.resolve({ kind: 'slug', slug: 'marked' }))?.workspaceId).toBe(marked.id);
  });

  it('an unknown or malformed slug is null; a malformed one never reaches the database', async () => {
    const dead = createDatabase('postgres://mos@127.0.0.1:1/none', { max: 1 });
    try {
      const offline = createIngressResolver({ ...deps, db: dead.db }, 5_000);
      for (const slug of ['UPPER', '', 'a\u0000b', '-x', 'a'.repeat(65)]) expect(await offline.resolve({ kind: 'slug', slug })).toBeNull();
    } finally {
      await dead.close();
    }
    expect(await createIngressResolver(deps, 5_000).resolve({ kind: 'slug', slug: 'nobody-here' })).toBeNull();
  });
});
