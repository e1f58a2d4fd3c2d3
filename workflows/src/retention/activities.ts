import { sha256Hex, type Clock } from '@mos/core';
import {
  deleteReactionsBefore,
  deleteStatusesBefore,
  getWorkspace,
  listRetentionWorkspaces,
  purgeEnvelopeBodiesBefore,
  purgeMessageContentBefore,
  purgeVersionContentBefore,
  writeAuditLog,
  type Db,
} from '@mos/db';
import type { Logger } from '@mos/config';
import type { RetentionCounts } from './contract';

export interface RetentionDeps {
  db: Db;
  log: Logger;
  /** Injected so tests can put "now" anywhere; the cutoff is now minus the workspace's period. */
  clock: Clock;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention activities. Each batch call commits on its own, so a purge interrupted at any
 * point resumes from the rows that are left; nothing depends on in-memory progress.
 */
export function createRetentionActivities(deps: RetentionDeps) {
  return {
    async listRetentionTargets(): Promise<{ workspaceId: string; days: number }[]> {
      return listRetentionWorkspaces(deps.db);
    },

    /** The cutoff for a workspace, or null when it has no retention period. */
    async retentionCutoff(input: { workspaceId: string }): Promise<{ cutoff: string; days: number } | null> {
      const ws = await getWorkspace(deps.db, input.workspaceId);
      if (!ws?.dataRetentionDays) return null;
      return { cutoff: new Date(deps.clock.now().getTime() - ws.dataRetentionDays * DAY_MS).toISOString(), days: ws.dataRetentionDays };
    },

    /** Up to `batchSize` rows of each kind; `done` when every kind had fewer than a full batch. */
    async purgeRetentionBatch(input: { workspaceId: string; cutoff: string; batchSize: number }): Promise<RetentionCounts & { done: boolean }> {
      const cutoff = new Date(input.cutoff);
      const now = deps.clock.now();
      const result = await deps.db.transaction(async (tx) => ({
        messages: await purgeMessageContentBefore(tx, input.workspaceId, cutoff, input.batchSize, now),
        webhookEvents: await purgeEnvelopeBodiesBefore(tx, input.workspaceId, cutoff, input.batchSize, now),
        deliveryStatuses: await deleteStatusesBefore(tx, input.workspaceId, cutoff, input.batchSize),
        // After the messages: what is left is what no purged message took with it.
        messageVersions: await purgeVersionContentBefore(tx, input.workspaceId, cutoff, input.batchSize),
        reactions: await deleteReactionsBefore(tx, input.workspaceId, cutoff, input.batchSize),
      }));
      const done = Object.values(result).every((n) => n < input.batchSize);
      return { ...result, done };
    },

    async recordRetentionPurge(input: { workspaceId: string; cutoff: string; days: number; batches: number; counts: RetentionCounts }): Promise<void> {
      // A fixed id per (workspace, cutoff): a retry after a lost completion writes nothing new.
      await writeAuditLog(deps.db, input.workspaceId, {
        id: `aud_retention_${sha256Hex(`${input.workspaceId}/${input.cutoff}`).slice(0, 24)}`,
        action: 'retention.purge',
        actorId: 'system',
        targetId: input.workspaceId,
        details: { cutoff: input.cutoff, days: input.days, batches: input.batches, ...input.counts },
      });
      deps.log.info({ workspaceId: input.workspaceId, ...input.counts, batches: input.batches }, 'retention purge finished');
    },
  };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
