import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * Templates as the provider knows them, copied by template sync (full resync and per-event
 * upserts); served by GET /internal/templates. Never edited by operators. Both the
 * provider id and (name, language) identify a row; upserts key on (name, language) because
 * the provider may re-create a deleted name under a new id.
 */
export const syncedTemplates = pgTable(
  'synced_templates',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    providerTemplateId: text('provider_template_id').notNull(),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    /** Lower-case: approved, pending_approval, rejected, paused, disabled, ... */
    status: text('status').notNull(),
    parameterFormat: text('parameter_format'),
    components: jsonb('components').$type<unknown[]>().notNull().default([]),
    rejectionReason: text('rejection_reason'),
    syncedAt: tstz('synced_at').notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('synced_templates_ws_provider_id_uq').on(t.workspaceId, t.providerTemplateId),
    uniqueIndex('synced_templates_ws_name_language_uq').on(t.workspaceId, t.name, t.language),
  ],
);
