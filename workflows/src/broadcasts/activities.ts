import { ApplicationFailure } from '@temporalio/common';
import { systemClock, type Clock } from '@mos/core';
import { broadcastStatusCounts, enqueueBroadcastPage, getBroadcastRow, updateBroadcast, type BroadcastRow, type Db, type DbOrTx } from '@mos/db';
import type { Logger } from '@mos/config';
import type { BroadcastInput, BroadcastStep } from './contract';

export interface BroadcastActivityDeps {
  db: Db;
  log: Logger;
  clock?: Clock;
  /** Wakes the business number's send governor (app `wakeGovernor`). */
  wakeGovernor(workspaceId: string, phoneNumberId: string): Promise<void>;
  /** Contacts per enqueue step; each step is one transaction. */
  pageSize?: number;
}

async function load(db: DbOrTx, input: BroadcastInput, lock = false): Promise<BroadcastRow> {
  const row = await getBroadcastRow(db, input.workspaceId, input.broadcastId, lock);
  if (!row) throw ApplicationFailure.create({ type: 'BroadcastNotFound', message: `broadcast ${input.broadcastId} not found`, nonRetryable: true });
  return row;
}

async function stepOf(db: DbOrTx, row: BroadcastRow): Promise<BroadcastStep> {
  const counts = await broadcastStatusCounts(db, row.workspaceId, row.id);
  return {
    status: row.status,
    enqueueDone: row.enqueueFinishedAt !== null,
    remaining: (counts.queued ?? 0) + (counts.sending ?? 0),
    started: row.startedAt !== null,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
  };
}

export function createBroadcastActivities(deps: BroadcastActivityDeps) {
  const clock = deps.clock ?? systemClock;
  const pageSize = deps.pageSize ?? 500;
  return {
    /** Starts a scheduled broadcast whose time has come (running, started now); otherwise reports. */
    async beginBroadcast(input: BroadcastInput): Promise<BroadcastStep> {
      const now = clock.now();
      const row = await deps.db.transaction(async (tx) => {
        const b = await load(tx, input, true);
        const due = !b.scheduledAt || b.scheduledAt.getTime() <= now.getTime();
        if (b.status !== 'scheduled' || !due) return b;
        return (await updateBroadcast(tx, input.workspaceId, b.id, { status: 'running', startedAt: now }))!;
      });
      return stepOf(deps.db, row);
    },

    /** Enqueues the next page of the segment while running, and wakes the governor for it. */
    async enqueueBroadcastStep(input: BroadcastInput): Promise<BroadcastStep> {
      const now = clock.now();
      const row = await deps.db.transaction(async (tx) => {
        const b = await load(tx, input, true);
        if (b.status !== 'running' || b.enqueueFinishedAt) return b;
        await enqueueBroadcastPage(tx, input.workspaceId, b, pageSize, now);
        return load(tx, input);
      });
      if (row.status === 'running') await deps.wakeGovernor(row.workspaceId, row.phoneNumberId);
      return stepOf(deps.db, row);
    },

    /** Reports progress; a running broadcast fully enqueued with nothing left becomes completed. */
    async broadcastProgress(input: BroadcastInput): Promise<BroadcastStep> {
      let row = await load(deps.db, input);
      const step = await stepOf(deps.db, row);
      if (row.status === 'running' && step.enqueueDone && step.remaining === 0) {
        row = await deps.db.transaction(async (tx) => {
          const b = await load(tx, input, true);
          if (b.status !== 'running') return b;
          return (await updateBroadcast(tx, input.workspaceId, b.id, { status: 'completed', finishedAt: clock.now() }))!;
        });
        return { ...step, status: row.status };
      }
      return step;
    },
  };
}

export type BroadcastActivities = ReturnType<typeof createBroadcastActivities>;
