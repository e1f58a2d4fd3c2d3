import { z } from 'zod';
import { AppError, newToken, sha256Hex, safeString } from '@mos/core';
import { findLiveApiKeyByHash, insertApiKey, listApiKeys, revokeApiKey, writeAuditLog, type ApiKeyView } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyPublic = z.infer<typeof apiKeyView>;

const toView = (k: ApiKeyView): ApiKeyPublic => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

export const createApiKeyInput = z.object({ name: safeString().trim().min(1).max(100) });

/** Display prefix: enough to recognise a key in a list, far too little to use it. */
const PREFIX_LENGTH = 12;

/** The key is returned once, here; only its SHA-256 is stored. */
export async function createApiKey(
  deps: AppDeps,
  scope: Scope,
  input: z.infer<typeof createApiKeyInput>,
): Promise<{ id: string; key: string; prefix: string; name: string }> {
  const key = newToken('mos_live');
  const prefix = key.slice(0, PREFIX_LENGTH);
  return deps.db.transaction(async (tx) => {
    const row = await insertApiKey(tx, scope.workspaceId, { name: input.name, prefix, keyHash: sha256Hex(key) });
    await writeAuditLog(tx, scope.workspaceId, { action: 'api_key.create', actorId: scope.actorId, targetId: row.id, details: { name: input.name } });
    return { id: row.id, key, prefix, name: row.name };
  });
}

/** Live and revoked keys, prefixes only. */
export async function listWorkspaceApiKeys(deps: AppDeps, scope: Scope): Promise<{ apiKeys: ApiKeyPublic[] }> {
  return { apiKeys: (await listApiKeys(deps.db, scope.workspaceId)).map(toView) };
}

export async function revokeWorkspaceApiKey(deps: AppDeps, scope: Scope, keyId: string): Promise<ApiKeyPublic> {
  return deps.db.transaction(async (tx) => {
    const row = await revokeApiKey(tx, scope.workspaceId, keyId, deps.clock.now());
    if (!row) throw new AppError('not_found', { message: 'no live API key with this id' });
    await writeAuditLog(tx, scope.workspaceId, { action: 'api_key.revoke', actorId: scope.actorId, targetId: keyId });
    return toView(row);
  });
}

/** For the /v1 surface: the workspace a live key belongs to, or null. Lookup by hash is constant-time in effect. */
export async function authenticateApiKey(deps: AppDeps, key: string | undefined): Promise<{ workspaceId: string; keyId: string } | null> {
  if (!key || key.length > 200) return null;
  const row = await findLiveApiKeyByHash(deps.db, sha256Hex(key));
  return row ? { workspaceId: row.workspaceId, keyId: row.id } : null;
}
