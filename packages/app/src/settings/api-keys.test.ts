import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@mos/core';
import { apiKeys, listAuditLogs } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { seedOperator, testDeps } from '../testing/index';
import { authenticateApiKey, createApiKey, listWorkspaceApiKeys, revokeWorkspaceApiKey } from './api-keys';

describe('API key lifecycle', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('creates a key shown once, stores only its hash, authenticates it, and revokes it', async () => {
    const deps = testDeps(tdb.db);
    const op = await seedOperator(deps);
    const scope = { workspaceId: op.workspaceId, actorId: op.memberId, role: op.role };
    const created = await createApiKey(deps, scope, { name: 'crm sync' });
    expect(created.key).toMatch(/^mos_live_[\w-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const rows = await tdb.db.select().from(apiKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.keyHash).toBe(sha256Hex(created.key));
    expect(JSON.stringify(rows)).not.toContain(created.key);
    const listed = await listWorkspaceApiKeys(deps, scope);
    expect(listed.apiKeys).toEqual([
      { id: created.id, name: 'crm sync', prefix: created.prefix, createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect(await authenticateApiKey(deps, created.key)).toEqual({ workspaceId: op.workspaceId, keyId: created.id });
    expect(await authenticateApiKey(deps, `${created.key}x`)).toBeNull();
    expect(await authenticateApiKey(deps, undefined)).toBeNull();

    await revokeWorkspaceApiKey(deps, scope, created.id);
    expect(await authenticateApiKey(deps, created.key)).toBeNull();
    await expect(revokeWorkspaceApiKey(deps, scope, created.id)).rejects.toMatchObject({ code: 'not_found' });
    const audit = await listAuditLogs(deps.db, op.workspaceId, { limit: 10 });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['api_key.create', 'api_key.revoke']));
  });

  it('cannot revoke another workspace key', async () => {
    const deps = testDeps(tdb.db);
    const a = await seedOperator(deps);
    const b = await seedOperator(deps);
    const key = await createApiKey(deps, { workspaceId: a.workspaceId, actorId: a.memberId, role: a.role }, { name: 'a' });
    await expect(revokeWorkspaceApiKey(deps, { workspaceId: b.workspaceId, actorId: b.memberId, role: b.role }, key.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await authenticateApiKey(deps, key.key)).toMatchObject({ workspaceId: a.workspaceId });
  });
});
