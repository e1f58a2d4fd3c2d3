/**
 * The retention contract: names and types shared by its workflows, its activities and its
 * schedule. Constants and types only: no imports, no I/O.
 */

export interface RetentionCounts {
  /** Messages whose content was removed. */
  messages: number;
  /** Stored webhook envelopes whose raw body was removed. */
  webhookEvents: number;
  /** Delivery-history rows deleted. */
  deliveryStatuses: number;
  /**
   * Message versions (edits) whose content was removed by their own age: those of messages we
   * never stored (a purged message's versions count with it, under `messages`).
   */
  messageVersions: number;
  /** Reactions deleted by their own age: those to messages we never stored (likewise). */
  reactions: number;
}

/** Nothing purged yet. */
export const NO_RETENTION_COUNTS: RetentionCounts = { messages: 0, webhookEvents: 0, deliveryStatuses: 0, messageVersions: 0, reactions: 0 };

export interface RetentionPurgeInput {
  workspaceId: string;
  /** Rows of each kind per activity call (default 500). */
  batchSize?: number;
  /** Carried across continue-as-new; callers leave it out. */
  carry?: { cutoff: string; days: number; batches: number; counts: RetentionCounts };
}

export interface RetentionPurgeResult {
  workspaceId: string;
  skipped: boolean;
  cutoff: string | null;
  batches: number;
  counts: RetentionCounts;
  /** Set by the daily sweep when this workspace's purge failed after its retries. */
  error?: string;
}

export const RETENTION_PURGE = 'retentionPurge';
export const RETENTION_SWEEP = 'retentionSweep';
export const RETENTION_SCHEDULE_ID = 'mos-retention-daily';
export const RETENTION_BATCH_SIZE = 500;
