import { and, asc, eq, isNull } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { apiKeys } from '../schema/index';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyView = Omit<ApiKeyRow, 'keyHash'>;

const view = {
  id: apiKeys.id,
  workspaceId: apiKeys.workspaceId,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

export async function insertApiKey(db: DbOrTx, workspaceId: string, input: { name: string; prefix: string; keyHash: string }): Promise<ApiKeyView> {
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId('apiKey'), workspaceId, ...input })
    .returning(view);
  return row!;
}

export async function listApiKeys(db: DbOrTx, workspaceId: string): Promise<ApiKeyView[]> {
  return db.select(view).from(apiKeys).where(eq(apiKeys.workspaceId, workspaceId)).orderBy(asc(apiKeys.createdAt));
}

export async function revokeApiKey(db: DbOrTx, workspaceId: string, keyId: string, now: Date): Promise<ApiKeyView | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning(view);
  return row;
}

/** The key is the credential, so lookup is by hash; returns only live keys. */
export async function findLiveApiKeyByHash(db: DbOrTx, keyHash: string): Promise<ApiKeyView | undefined> {
  const [row] = await db
    .select(view)
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  return row;
}
