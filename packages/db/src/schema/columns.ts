import { customType, text, timestamp } from 'drizzle-orm/pg-core';

/** Shared column mixins: every table is workspace-scoped and timestamped in UTC. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => tstz('created_at').notNull().defaultNow();
export const updatedAt = () => tstz('updated_at').notNull().defaultNow();
export const workspaceId = () => text('workspace_id').notNull();

/** Raw request bodies are bytes: the signature covers exact bytes, not a decoded string. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});
