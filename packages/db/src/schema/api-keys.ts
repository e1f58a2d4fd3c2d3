import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** Keys for the /v1 surface: SHA-256 of the key plus a short display prefix. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_workspace_idx').on(t.workspaceId)],
);
