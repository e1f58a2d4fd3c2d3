import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, workspaceId } from './columns';
import { members } from './members';
import { workspaces } from './workspaces';

/** Operator sessions. Only the SHA-256 of the bearer token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_member_idx').on(t.workspaceId, t.memberId)],
);
