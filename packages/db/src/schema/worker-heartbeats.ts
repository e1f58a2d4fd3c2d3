import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/**
 * Liveness of worker processes for /ready. The one table without workspace_id: a worker
 * serves every workspace, and nothing tenant-owned is stored here.
 */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  /** idle | busy | stopping */
  status: text('status').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>(),
  startedAt: tstz('started_at').notNull(),
  lastBeatAt: tstz('last_beat_at').notNull(),
});
