import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/** Vault entries: AES-256-GCM ciphertext (`v1:iv:tag:data`, base64), never plaintext. */
export const vaultSecrets = pgTable(
  'vault_secrets',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ciphertext: text('ciphertext').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('vault_secrets_workspace_name_uq').on(t.workspaceId, t.name)],
);
