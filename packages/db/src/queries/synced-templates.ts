import { and, asc, eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { syncedTemplates } from '../schema/index';

export type SyncedTemplateRow = typeof syncedTemplates.$inferSelect;

export interface SyncedTemplateInput {
  providerTemplateId: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameterFormat?: string | null;
  /** Omitted by status-only updates, which keep the stored components. */
  components?: unknown[];
  rejectionReason?: string | null;
}

/**
 * The full-sync (and POST /internal/templates) write: the provider's present state.
 * Upserts on (workspace, name, language); the provider id is refreshed too, so a template
 * the provider re-created under a new id replaces the old copy instead of duplicating it.
 *
 * The status (and the components, when given) are stamped `now`, so a webhook delivered
 * late with an older time cannot undo what the sync just read. A pending re-categorization
 * is cleared once the synced category is the pending one (the change happened).
 */
export async function upsertSyncedTemplate(db: DbOrTx, workspaceId: string, input: SyncedTemplateInput, now: Date): Promise<SyncedTemplateRow> {
  const set = {
    providerTemplateId: input.providerTemplateId,
    category: input.category,
    status: input.status,
    rejectionReason: input.rejectionReason ?? null,
    statusChangedAt: now,
    syncedAt: now,
    updatedAt: now,
  } as {
    providerTemplateId: string;
    category: string;
    status: string;
    rejectionReason: string | null;
    statusChangedAt: Date;
    syncedAt: Date;
    updatedAt: Date;
    components?: unknown[];
    componentsChangedAt?: Date;
    parameterFormat?: string | null;
  };
  if (input.components !== undefined) {
    set.components = input.components;
    set.componentsChangedAt = now;
  }
  if (input.parameterFormat !== undefined) set.parameterFormat = input.parameterFormat;
  // A different row may already hold this provider id under an old (name, language): the
  // provider's names are immutable, so that row is stale and goes.
  await db
    .delete(syncedTemplates)
    .where(
      and(
        eq(syncedTemplates.workspaceId, workspaceId),
        eq(syncedTemplates.providerTemplateId, input.providerTemplateId),
        sql`(${syncedTemplates.name}, ${syncedTemplates.language}) <> (${input.name}, ${input.language})`,
      ),
    );
  const reached = sql`${syncedTemplates.pendingCategory} IS NOT DISTINCT FROM ${input.category}`;
  // Same name and language under a new id: the provider re-created the template, and what its
  // webhooks said about the old one (quality, status detail, category news) no longer applies.
  const recreated = sql`${syncedTemplates.providerTemplateId} IS DISTINCT FROM ${input.providerTemplateId}`;
  const unlessRecreated = (col: PgColumn) => sql`CASE WHEN ${recreated} THEN NULL ELSE ${col} END`;
  const [row] = await db
    .insert(syncedTemplates)
    .values({
      id: newId('syncedTemplate', now.getTime()),
      workspaceId,
      name: input.name,
      language: input.language,
      components: input.components ?? [],
      parameterFormat: input.parameterFormat ?? null,
      ...set,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [syncedTemplates.workspaceId, syncedTemplates.name, syncedTemplates.language],
      set: {
        ...set,
        pendingCategory: sql`CASE WHEN ${reached} OR ${recreated} THEN NULL ELSE ${syncedTemplates.pendingCategory} END`,
        pendingCategoryAt: sql`CASE WHEN ${reached} OR ${recreated} THEN NULL ELSE ${syncedTemplates.pendingCategoryAt} END`,
        statusDetail: unlessRecreated(syncedTemplates.statusDetail),
        qualityScore: unlessRecreated(syncedTemplates.qualityScore),
        previousQualityScore: unlessRecreated(syncedTemplates.previousQualityScore),
        qualityChangedAt: unlessRecreated(syncedTemplates.qualityChangedAt),
        previousCategory: unlessRecreated(syncedTemplates.previousCategory),
        categoryChangedAt: unlessRecreated(syncedTemplates.categoryChangedAt),
      },
    })
    .returning();
  return row!;
}

/** Stable order for offset paging: name, then language. */
export async function listSyncedTemplates(db: DbOrTx, workspaceId: string, opts: { limit: number; offset: number }): Promise<SyncedTemplateRow[]> {
  return db
    .select()
    .from(syncedTemplates)
    .where(eq(syncedTemplates.workspaceId, workspaceId))
    .orderBy(asc(syncedTemplates.name), asc(syncedTemplates.language), asc(syncedTemplates.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

export async function findSyncedTemplate(db: DbOrTx, workspaceId: string, name: string, language: string): Promise<SyncedTemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(syncedTemplates)
    .where(and(eq(syncedTemplates.workspaceId, workspaceId), eq(syncedTemplates.name, name), eq(syncedTemplates.language, language)));
  return row;
}

export async function findSyncedTemplateByProviderId(db: DbOrTx, workspaceId: string, providerTemplateId: string): Promise<SyncedTemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(syncedTemplates)
    .where(and(eq(syncedTemplates.workspaceId, workspaceId), eq(syncedTemplates.providerTemplateId, providerTemplateId)));
  return row;
}

/** Workspaces with a business account configured: the nightly template resync visits each. */
export async function listSyncableWorkspaceIds(db: DbOrTx): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`SELECT id FROM workspaces WHERE waba_id IS NOT NULL ORDER BY id`);
  return rows.rows.map((r) => r.id);
}
