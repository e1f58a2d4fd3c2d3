import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { apiKeys, syncedTemplates } from '../schema/index';
import type { SyncedTemplateRow } from './synced-templates';

/** Synced statuses are stored lower-case (core `mapProviderTemplateStatus`). */
const APPROVED = 'approved';

/**
 * Stamps a key's `last_used_at` unless it was stamped less than a minute ago. The condition
 * lives in the statement, so several API processes together still write at most about once
 * a minute per key (callers also skip the call in between).
 */
export async function touchApiKeyLastUsed(db: DbOrTx, workspaceId: string, keyId: string, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.workspaceId, workspaceId),
        eq(apiKeys.id, keyId),
        sql`(${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} <= ${now}::timestamptz - interval '1 minute')`,
      ),
    );
}

/** GET /v1/templates: the workspace's approved synced templates, by name then language. */
export async function listApprovedTemplates(db: DbOrTx, workspaceId: string): Promise<SyncedTemplateRow[]> {
  return db
    .select()
    .from(syncedTemplates)
    .where(and(eq(syncedTemplates.workspaceId, workspaceId), eq(syncedTemplates.status, APPROVED)))
    .orderBy(asc(syncedTemplates.name), asc(syncedTemplates.language));
}

/** The approved synced template a send may use, or undefined (unknown, pending, rejected, paused, ...). */
export async function findApprovedTemplate(db: DbOrTx, workspaceId: string, name: string, language: string): Promise<SyncedTemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(syncedTemplates)
    .where(
      and(
        eq(syncedTemplates.workspaceId, workspaceId),
        eq(syncedTemplates.name, name),
        eq(syncedTemplates.language, language),
        eq(syncedTemplates.status, APPROVED),
      ),
    );
  return row;
}
