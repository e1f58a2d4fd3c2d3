import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * What the provider said in the last status webhook applied to a synced template: the event
 * verbatim (APPROVED, REJECTED, FLAGGED, PAUSED, DISABLED, ...), its reason code, and the
 * `rejection_info` / `other_info` / `disable_info` text. Kept after a later sync changes the
 * status, so operators can read why the template was last paused or rejected.
 */
export interface TemplateStatusDetail {
  event: string;
  reason: string | null;
  title: string | null;
  description: string | null;
  recommendation: string | null;
  /** `disable_info.disable_date` as the provider sent it (a timestamp or a date string). */
  disableDate: string | null;
}

/**
 * Templates as the provider knows them, copied by template sync (full resync and per-event
 * upserts); served by GET /internal/templates. Never edited by operators. Both the
 * provider id and (name, language) identify a row; upserts key on (name, language) because
 * the provider may re-create a deleted name under a new id.
 *
 * Each kind of webhook change (status, quality, category, components) carries its own
 * `*_changed_at`: the provider's time of the newest change applied, so a late or replayed
 * older delivery never overwrites a newer one (docs/templates.md, "Template sync").
 */
export const syncedTemplates = pgTable(
  'synced_templates',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    providerTemplateId: text('provider_template_id').notNull(),
    name: text('name').notNull(),
    language: text('language').notNull(),
    /** UNKNOWN until a sync or an event states it (a webhook may name a template we never synced). */
    category: text('category').notNull(),
    /** Lower-case: approved, pending_approval, rejected, paused, disabled, flagged, ... `unknown` until stated. */
    status: text('status').notNull(),
    parameterFormat: text('parameter_format'),
    components: jsonb('components').$type<unknown[]>().notNull().default([]),
    rejectionReason: text('rejection_reason'),
    statusDetail: jsonb('status_detail').$type<TemplateStatusDetail>(),
    /** Time of the newest status applied (webhook occurredAt, or the sync's time). */
    statusChangedAt: tstz('status_changed_at'),
    /** GREEN | YELLOW | RED | UNKNOWN (message_template_quality_update). */
    qualityScore: text('quality_score'),
    previousQualityScore: text('previous_quality_score'),
    qualityChangedAt: tstz('quality_changed_at'),
    /** The category before the last completed template_category_update. */
    previousCategory: text('previous_category'),
    /** An impending re-categorization: the category the provider will apply, and when. */
    pendingCategory: text('pending_category'),
    pendingCategoryAt: tstz('pending_category_at'),
    categoryChangedAt: tstz('category_changed_at'),
    componentsChangedAt: tstz('components_changed_at'),
    syncedAt: tstz('synced_at').notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('synced_templates_ws_provider_id_uq').on(t.workspaceId, t.providerTemplateId),
    uniqueIndex('synced_templates_ws_name_language_uq').on(t.workspaceId, t.name, t.language),
  ],
);
