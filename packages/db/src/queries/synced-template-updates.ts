import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { syncedTemplates } from '../schema/index';
import { findSyncedTemplate, findSyncedTemplateByProviderId, type SyncedTemplateRow } from './synced-templates';
import { findTemplateByKey, findTemplateByProviderId, type TemplateRow } from './templates';

/**
 * Webhook changes to a synced template (status, quality, category, components). Rules shared
 * by all four (docs/templates.md, "Template sync"):
 *
 * - Newest wins per kind: each kind keeps the provider time of the change it last applied
 *   (`*_changed_at`); a change older than that is dropped, an equal one re-applies the same
 *   values (a replay). A change without a time applies only while nothing timed is stored.
 * - A template we never synced is still kept: with its name and language known, a
 *   placeholder copy is created (status `unknown`, category `UNKNOWN` unless our library
 *   knows better) that the next sync completes. Without them nothing can be keyed, and the
 *   caller records the change elsewhere (`synced: null`).
 */

/** How an event names its template. The provider always sends the id; name and language may be missing. */
export interface SyncedTemplateRef {
  providerTemplateId: string;
  name: string | null;
  language: string | null;
}

export interface SyncedTemplateChangeResult {
  /** The copy after the change; null when the template could not be attached to a copy. */
  synced: SyncedTemplateRow | null;
  /** False when a newer change of the same kind was already applied. */
  applied: boolean;
}

type Patch = Partial<typeof syncedTemplates.$inferInsert>;

/**
 * The webhook-fed state of a template, as for one the provider has just created: what a copy
 * starts from when a re-created template (same name and language, new id) takes it over.
 */
export const FRESH_TEMPLATE_STATE = {
  statusDetail: null,
  statusChangedAt: null,
  rejectionReason: null,
  qualityScore: null,
  previousQualityScore: null,
  qualityChangedAt: null,
  previousCategory: null,
  pendingCategory: null,
  pendingCategoryAt: null,
  categoryChangedAt: null,
  componentsChangedAt: null,
} satisfies Patch;

/** The stored stamp is no newer than `at` (null `at`: only while nothing timed is stored). */
export function atLeastAsNew(stamp: PgColumn, at: Date | null): SQL {
  return at === null ? sql`${stamp} IS NULL` : sql`(${stamp} IS NULL OR ${stamp} <= ${at.toISOString()}::timestamptz)`;
}

/**
 * The copy an event is about: by provider id, else by (name, language). A copy found by name
 * whose provider id differs is taken over only by a change at least as new as the time we
 * learned that copy's id (`synced_at`: its last sync, or the event that seeded or took it over):
 * the provider re-created the template. An older change is about the template it replaced and
 * attaches to nothing. `library` is our library's row for the template when the caller has
 * already looked it up (null: it has, and there is none), so it is not read twice.
 */
async function locateSyncedTemplate(
  db: DbOrTx,
  workspaceId: string,
  ref: SyncedTemplateRef,
  at: Date | null,
  now: Date,
  known?: TemplateRow | null,
): Promise<SyncedTemplateRow | undefined> {
  const byId = await findSyncedTemplateByProviderId(db, workspaceId, ref.providerTemplateId);
  if (byId) return byId;
  if (ref.name === null || ref.language === null) return undefined;
  const byKey = await findSyncedTemplate(db, workspaceId, ref.name, ref.language);
  if (byKey) return at !== null && at.getTime() >= byKey.syncedAt.getTime() ? byKey : undefined;
  // First sight: start from what our library submitted, if it is ours.
  const library =
    known !== undefined
      ? known
      : ((await findTemplateByProviderId(db, workspaceId, ref.providerTemplateId)) ?? (await findTemplateByKey(db, workspaceId, ref.name, ref.language)));
  await db
    .insert(syncedTemplates)
    .values({
      id: newId('syncedTemplate', now.getTime()),
      workspaceId,
      providerTemplateId: ref.providerTemplateId,
      name: ref.name,
      language: ref.language,
      category: library?.category ?? 'UNKNOWN',
      status: 'unknown',
      components: library?.components ?? [],
      parameterFormat: library?.parameterFormat ?? null,
      // When we learned this id holds this name: the event's time, so the takeover rule below compares like with like.
      syncedAt: at ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  return findSyncedTemplateByProviderId(db, workspaceId, ref.providerTemplateId);
}

/**
 * Locates (or seeds) the copy and applies `patch` if `stamp` is no newer than `at`: one
 * conditional UPDATE, so two deliveries racing on the same row cannot both win out of order.
 */
export async function applySyncedTemplateChange(
  db: DbOrTx,
  workspaceId: string,
  ref: SyncedTemplateRef,
  change: {
    at: Date | null;
    stamp: PgColumn;
    patch: (row: SyncedTemplateRow) => Patch;
    /** Our library's row for the template, when the caller already looked it up (null: none). */
    library?: TemplateRow | null;
  },
  now: Date,
): Promise<SyncedTemplateChangeResult> {
  return db.transaction(async (tx) => {
    const row = await locateSyncedTemplate(tx, workspaceId, ref, change.at, now, change.library);
    if (!row) return { synced: null, applied: false };
    const takeover = row.providerTemplateId !== ref.providerTemplateId;
    const [updated] = await tx
      .update(syncedTemplates)
      .set({
        // A takeover (see locateSyncedTemplate) moves the copy to the new id as of this change;
        // what the provider said about the template it replaced no longer applies.
        ...(takeover ? { ...FRESH_TEMPLATE_STATE, status: 'unknown', providerTemplateId: ref.providerTemplateId, syncedAt: change.at ?? now } : {}),
        ...change.patch(row),
        updatedAt: now,
      })
      .where(
        and(
          eq(syncedTemplates.workspaceId, workspaceId),
          eq(syncedTemplates.id, row.id),
          // The replaced template's stamps say nothing about the new one; the takeover itself was
          // already judged against the copy's synced_at.
          takeover ? eq(syncedTemplates.providerTemplateId, row.providerTemplateId) : atLeastAsNew(change.stamp, change.at),
        ),
      )
      .returning();
    return updated ? { synced: updated, applied: true } : { synced: row, applied: false };
  });
}

/** `message_template_quality_update`: GREEN | YELLOW | RED | UNKNOWN, and the score before it. */
export function applyTemplateQualityUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: SyncedTemplateRef & { previousScore: string | null; newScore: string; occurredAt: Date | null },
  now: Date,
): Promise<SyncedTemplateChangeResult> {
  const at = update.occurredAt;
  return applySyncedTemplateChange(
    db,
    workspaceId,
    update,
    {
      at,
      stamp: syncedTemplates.qualityChangedAt,
      patch: () => ({ qualityScore: update.newScore, previousQualityScore: update.previousScore, qualityChangedAt: at }),
    },
    now,
  );
}

/**
 * `template_category_update`. Impending (the provider names a `correctCategory`): the category
 * stays `newCategory` (the current one, as the provider documents it) and the pending change
 * and its effective time are stored. Completed: the category becomes `newCategory`, the one
 * before it is kept in `previous_category`, and any pending change is settled.
 */
export function applyTemplateCategoryUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: SyncedTemplateRef & {
    previousCategory: string | null;
    newCategory: string;
    correctCategory: string | null;
    effectiveAt: Date | null;
    occurredAt: Date | null;
  },
  now: Date,
): Promise<SyncedTemplateChangeResult> {
  const at = update.occurredAt;
  const impending = update.correctCategory !== null;
  return applySyncedTemplateChange(
    db,
    workspaceId,
    update,
    {
      at,
      stamp: syncedTemplates.categoryChangedAt,
      patch: (row) =>
        impending
          ? { category: update.newCategory, pendingCategory: update.correctCategory, pendingCategoryAt: update.effectiveAt, categoryChangedAt: at }
          : {
              category: update.newCategory,
              previousCategory: update.previousCategory ?? (row.category !== update.newCategory ? row.category : row.previousCategory),
              pendingCategory: null,
              pendingCategoryAt: null,
              categoryChangedAt: at,
            },
    },
    now,
  );
}

/** `message_template_components_update`: the copy's components become the edited ones. */
export function applyTemplateComponentsUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: SyncedTemplateRef & { components: Record<string, unknown>[]; occurredAt: Date | null },
  now: Date,
): Promise<SyncedTemplateChangeResult> {
  const at = update.occurredAt;
  return applySyncedTemplateChange(
    db,
    workspaceId,
    update,
    {
      at,
      stamp: syncedTemplates.componentsChangedAt,
      patch: () => ({ components: update.components, componentsChangedAt: at }),
    },
    now,
  );
}
