import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { workerHeartbeats } from '../schema/index';

/** A worker that has not beaten for this long is considered gone. */
export const HEARTBEAT_STALE_MS = 30_000;

export type WorkerStatus = 'idle' | 'busy' | 'stale' | 'absent';

export async function beatWorker(
  db: DbOrTx,
  input: { workerId: string; status: 'idle' | 'busy' | 'stopping'; startedAt: Date; now: Date; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insert(workerHeartbeats)
    .values({ workerId: input.workerId, status: input.status, startedAt: input.startedAt, lastBeatAt: input.now, details: input.details ?? null })
    .onConflictDoUpdate({
      target: workerHeartbeats.workerId,
      set: { status: input.status, lastBeatAt: input.now, details: input.details ?? null },
    });
}

/** The freshest heartbeat rows, and of those the live ones (beat within the window, not stopping). */
async function recentHeartbeats(db: DbOrTx, now: Date) {
  const rows = await db.select().from(workerHeartbeats).orderBy(desc(workerHeartbeats.lastBeatAt)).limit(20);
  return { rows, live: rows.filter((r) => r.status !== 'stopping' && now.getTime() - r.lastBeatAt.getTime() < HEARTBEAT_STALE_MS) };
}

/** The freshest worker's status; busy wins over idle among live workers. */
export async function getWorkerStatus(db: DbOrTx, now: Date): Promise<WorkerStatus> {
  const { rows, live } = await recentHeartbeats(db, now);
  if (live.some((r) => r.status === 'busy')) return 'busy';
  if (live.length > 0) return 'idle';
  return rows.length > 0 ? 'stale' : 'absent';
}

export async function pruneHeartbeats(db: DbOrTx, olderThan: Date): Promise<void> {
  await db.delete(workerHeartbeats).where(sql`${workerHeartbeats.lastBeatAt} < ${olderThan}`);
}

/**
 * The batch-size histograms the live workers' relays report in their heartbeats, summed
 * (counts since each worker started). Keys are the relay's buckets ('1', '2-5', ...).
 */
export async function liveBatchSizes(db: DbOrTx, now: Date): Promise<Record<string, number>> {
  const { live } = await recentHeartbeats(db, now);
  const sizes: Record<string, number> = {};
  for (const row of live) {
    const reported = (row.details as { relay?: { batchSizes?: Record<string, unknown> } } | null)?.relay?.batchSizes;
    for (const [bucket, n] of Object.entries(reported ?? {})) if (typeof n === 'number') sizes[bucket] = (sizes[bucket] ?? 0) + n;
  }
  return sizes;
}
