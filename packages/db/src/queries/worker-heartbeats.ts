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

/** The freshest worker's status; busy wins over idle among live workers. */
export async function getWorkerStatus(db: DbOrTx, now: Date): Promise<WorkerStatus> {
  const rows = await db.select().from(workerHeartbeats).orderBy(desc(workerHeartbeats.lastBeatAt)).limit(20);
  const live = rows.filter((r) => r.status !== 'stopping' && now.getTime() - r.lastBeatAt.getTime() < HEARTBEAT_STALE_MS);
  if (live.some((r) => r.status === 'busy')) return 'busy';
  if (live.length > 0) return 'idle';
  return rows.length > 0 ? 'stale' : 'absent';
}

export async function pruneHeartbeats(db: DbOrTx, olderThan: Date): Promise<void> {
  await db.delete(workerHeartbeats).where(sql`${workerHeartbeats.lastBeatAt} < ${olderThan}`);
}
