import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { webhookDeliveries, webhookEvents } from '../schema/index';
import { completeJob } from './outbox-relay';

/** What the worker needs of a stored event: the raw bytes and labels, nothing else. */
export interface EventForProcessing {
  id: string;
  topic: string;
  source: string;
  rawBody: Buffer | null;
  receivedAt: Date;
}

export async function loadEventForProcessing(db: DbOrTx, workspaceId: string, webhookEventId: string): Promise<EventForProcessing | null> {
  const [row] = await db
    .select({
      id: webhookEvents.id,
      topic: webhookEvents.topic,
      source: webhookEvents.source,
      rawBody: webhookEvents.rawBody,
      receivedAt: webhookEvents.receivedAt,
    })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.id, webhookEventId)))
    .limit(1);
  return row ?? null;
}

export async function findDeliveryForJob(db: DbOrTx, workspaceId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.jobId, jobId)))
    .limit(1);
  return row ?? null;
}

export interface FinishProcessingInput {
  deliveryId: string;
  webhookEventId: string;
  jobId: string;
  topic: string;
  status: 'processed' | 'failed';
  /** Family summaries (no phone numbers or bodies). */
  families: unknown[];
  error: string | null;
  now: Date;
  /**
   * What the parser reads from the stored body today, when the event row says otherwise: a
   * body stored as unparseable by an older parser that reads now (a job in flight across a
   * deploy). The row takes the topic, summary and channel ids derived today.
   */
  reparsed?: {
    topic: string;
    summary: Record<string, unknown>;
    accountId: string | null;
    phoneNumberId: string | null;
    displayPhoneNumber: string | null;
  };
  /** The Temporal run recording this outcome; the event row links to it. */
  run?: { workflowId: string; runId: string };
}

/**
 * Locks the job row for the caller's transaction and says whether it may still be applied.
 * Two appliers of one job (a batch retried after a crash while the job's own run starts, an
 * operator's reset) queue here; the second then finds the processed delivery and skips.
 */
export async function lockJobForApply(tx: DbOrTx, workspaceId: string, jobId: string): Promise<{ status: string } | null> {
  const res = await tx.execute<{ status: string }>(sql`SELECT status FROM outbox_jobs WHERE workspace_id = ${workspaceId} AND id = ${jobId} FOR UPDATE`);
  return res.rows[0] ?? null;
}

/**
 * Records the outcome of one job in one transaction: the delivery row (unique per job, so a
 * retried activity updates rather than duplicates it), the event's normalization status and
 * the job's final state. A processed delivery is never downgraded to failed. Returns the
 * delivery as stored.
 */
export async function finishWebhookProcessing(db: DbOrTx, workspaceId: string, input: FinishProcessingInput) {
  return db.transaction((tx) => recordWebhookOutcome(tx, workspaceId, input));
}

/** finishWebhookProcessing's writes in the caller's transaction (the batch apply's savepoint). */
export async function recordWebhookOutcome(tx: DbOrTx, workspaceId: string, input: FinishProcessingInput) {
  const [delivery] = await tx
    .insert(webhookDeliveries)
    .values({
      id: input.deliveryId,
      workspaceId,
      webhookEventId: input.webhookEventId,
      jobId: input.jobId,
      topic: input.topic,
      status: input.status,
      families: input.families,
      error: input.error,
      processedAt: input.now,
    })
    .onConflictDoUpdate({
      target: [webhookDeliveries.workspaceId, webhookDeliveries.jobId],
      set: { status: input.status, families: input.families, error: input.error, processedAt: input.now, topic: input.topic },
      setWhere: sql`${webhookDeliveries.status} <> 'processed'`,
    })
    .returning();
  const stored = delivery ?? (await findDeliveryForJob(tx, workspaceId, input.jobId));
  if (!stored) throw new Error(`delivery for job ${input.jobId} vanished`);
  // The event takes the delivery's final status (a processed delivery wins over a late failure).
  await tx
    .update(webhookEvents)
    .set({ normalizationStatus: stored.status, ...(input.reparsed ?? {}), ...(input.run ?? {}) })
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.id, input.webhookEventId)));
  await completeJob(tx, workspaceId, input.jobId, {
    status: stored.status === 'processed' ? 'completed' : 'failed',
    error: stored.status === 'processed' ? null : stored.error,
    now: input.now,
  });
  return stored;
}
