import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** An operator's membership of one workspace, with an argon2id password hash. */
export const members = pgTable(
  'members',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'developer', 'viewer'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('members_workspace_email_uq').on(t.workspaceId, t.email), index('members_email_idx').on(t.email)],
);
