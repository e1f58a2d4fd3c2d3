import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * The control-plane template library. A row starts as a `draft` (never sent), moves to
 * `pending_approval` on a successful submit (provider_template_id set), then `approved` or
 * `rejected` from the provider's status webhook; `rejected` also follows a 4xx on submit,
 * and `templates.revise` moves a rejected row back to `draft`. Unique per
 * (workspace, name, language): the provider's own identity for a template.
 */
export const templates = pgTable(
  'templates',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category', { enum: ['MARKETING', 'UTILITY', 'AUTHENTICATION'] }).notNull(),
    status: text('status', { enum: ['draft', 'pending_approval', 'rejected', 'approved'] })
      .notNull()
      .default('draft'),
    parameterFormat: text('parameter_format', { enum: ['POSITIONAL', 'NAMED'] })
      .notNull()
      .default('POSITIONAL'),
    /** The provider's component array, exactly as it will be submitted. */
    components: jsonb('components').$type<unknown[]>().notNull().default([]),
    /** The provider's top-level `message_send_ttl_seconds`, sent on create/edit when set. */
    messageSendTtlSeconds: integer('message_send_ttl_seconds'),
    providerTemplateId: text('provider_template_id'),
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('templates_ws_name_language_uq').on(t.workspaceId, t.name, t.language),
    index('templates_ws_updated_idx').on(t.workspaceId, t.updatedAt),
    index('templates_ws_provider_id_idx').on(t.workspaceId, t.providerTemplateId),
  ],
);
