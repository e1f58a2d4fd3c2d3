import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

/** Pending outbox jobs across all workspaces (the /ready figure); workspace-scoped when given. */
export async function countPendingJobs(db: DbOrTx, workspaceId?: string): Promise<number> {
  const res = await db.execute<{ n: number }>(
    workspaceId
      ? sql`SELECT count(*)::int AS n FROM outbox_jobs WHERE status = 'pending' AND workspace_id = ${workspaceId}`
      : sql`SELECT count(*)::int AS n FROM outbox_jobs WHERE status = 'pending'`,
  );
  return res.rows[0]?.n ?? 0;
}
