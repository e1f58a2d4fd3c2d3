import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** Operator actions: replays, sends, configuration changes. Append-only. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    targetId: text('target_id'),
    actorId: text('actor_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_logs_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);
