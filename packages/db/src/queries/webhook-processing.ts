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
  /** The ingress's summary; compat events carry what the ingress resolved (core CompatEventSummary). */
  summary: unknown;
}

export async function loadEventForProcessing(db: DbOrTx, workspaceId: string, webhookEventId: string): Promise<EventForProcessing | null> {
  const [row] = await db
    .select({
      id: webhookEvents.id,
      topic: webhookEvents.topic,
      source: webhookEvents.source,
      rawBody: webhookEvents.rawBody,
      receivedAt: webhookEvents.receivedAt,
      summary: webhookEvents.summary,
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
 * Records the outcome of one job in one transaction: the delivery row (unique per job, so a
 * retried activity updates rather than duplicates it), the event's normalization status and
 * the job's final state. A processed delivery is never downgraded to failed. Returns the
 * delivery as stored.
 */
export async function finishWebhookProcessing(db: DbOrTx, workspaceId: string, input: FinishProcessingInput) {
  return db.transaction((tx) => recordWebhookOutcome(tx, workspaceId, input));
}

async function recordWebhookOutcome(tx: DbOrTx, workspaceId: string, input: FinishProcessingInput) {
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

/** What an apply needs to decide and do, read while locking the job: one round trip. */
export interface JobForApply {
  /** null: no such job in this workspace. */
  jobStatus: string | null;
  /** The job's delivery, when one is recorded (processed: skip). */
  delivery: { id: string; status: string; topic: string; families: unknown[]; processedAt: Date | null } | null;
  event: EventForProcessing | null;
}

interface JobForApplyRow extends Record<string, unknown> {
  job_status: string | null;
  delivery_id: string | null;
  delivery_status: string | null;
  delivery_topic: string | null;
  delivery_families: unknown[] | null;
  delivery_processed_at: Date | null;
  event_id: string | null;
  event_topic: string | null;
  event_source: string | null;
  raw_body: Buffer | null;
  received_at: Date | null;
  event_summary: unknown;
}

/**
 * Locks the job row for the caller's transaction and reads its delivery and its event in the
 * same statement. Two appliers of one job (a batch retried after a crash while the job's own
 * run starts, an operator's reset) queue on the lock; the second then finds the processed
 * delivery and skips.
 */
export async function loadJobForApply(tx: DbOrTx, workspaceId: string, jobId: string, webhookEventId: string): Promise<JobForApply> {
  const res = await tx.execute<JobForApplyRow>(sql`
    SELECT j.status AS job_status,
           d.id AS delivery_id, d.status AS delivery_status, d.topic AS delivery_topic, d.families AS delivery_families, d.processed_at AS delivery_processed_at,
           e.id AS event_id, e.topic AS event_topic, e.source AS event_source, e.raw_body, e.received_at, e.summary AS event_summary
      FROM outbox_jobs j
      LEFT JOIN webhook_deliveries d ON d.workspace_id = j.workspace_id AND d.job_id = j.id
      LEFT JOIN webhook_events e ON e.workspace_id = j.workspace_id AND e.id = ${webhookEventId}
     WHERE j.workspace_id = ${workspaceId} AND j.id = ${jobId}
       FOR UPDATE OF j`);
  const r = res.rows[0];
  // No job row (not something the pipeline creates): nothing to lock; the event decides.
  if (!r)
    return {
      jobStatus: null,
      delivery: await findDeliveryForJob(tx, workspaceId, jobId),
      event: await loadEventForProcessing(tx, workspaceId, webhookEventId),
    };
  return {
    jobStatus: r.job_status,
    delivery: r.delivery_id
      ? {
          id: r.delivery_id,
          status: r.delivery_status!,
          topic: r.delivery_topic!,
          families: r.delivery_families ?? [],
          processedAt: r.delivery_processed_at ? new Date(r.delivery_processed_at) : null,
        }
      : null,
    event: r.event_id
      ? { id: r.event_id, topic: r.event_topic!, source: r.event_source!, rawBody: r.raw_body, receivedAt: new Date(r.received_at!), summary: r.event_summary }
      : null,
  };
}

/**
 * The processed outcome of an apply in ONE statement (delivery, event, job), for the caller
 * that holds the job's lock and has seen no processed delivery: recordWebhookOutcome's three
 * writes without two of its round trips. A processed delivery is still never overwritten.
 */
export async function recordWebhookProcessed(tx: DbOrTx, workspaceId: string, input: Omit<FinishProcessingInput, 'status' | 'error'>): Promise<void> {
  // The event row: its status, the run that applied it, and what today's parser reads when it differs.
  const r = input.reparsed;
  const eventSet = [
    sql`normalization_status = 'processed'`,
    ...(input.run ? [sql`workflow_id = ${input.run.workflowId}, run_id = ${input.run.runId}`] : []),
    ...(r
      ? [
          sql`topic = ${r.topic}, summary = ${JSON.stringify(r.summary)}::jsonb, account_id = ${r.accountId}, phone_number_id = ${r.phoneNumberId}, display_phone_number = ${r.displayPhoneNumber}`,
        ]
      : []),
  ];
  await tx.execute(sql`
    WITH d AS (
      INSERT INTO webhook_deliveries (id, workspace_id, webhook_event_id, job_id, topic, status, families, error, processed_at)
      VALUES (${input.deliveryId}, ${workspaceId}, ${input.webhookEventId}, ${input.jobId}, ${input.topic}, 'processed', ${JSON.stringify(input.families)}::jsonb, NULL, ${input.now})
      ON CONFLICT (workspace_id, job_id) DO UPDATE
        SET status = 'processed', families = excluded.families, error = NULL, processed_at = excluded.processed_at, topic = excluded.topic
        WHERE webhook_deliveries.status <> 'processed'
    ), e AS (
      UPDATE webhook_events SET ${sql.join(eventSet, sql`, `)}
       WHERE workspace_id = ${workspaceId} AND id = ${input.webhookEventId}
    )
    UPDATE outbox_jobs SET status = 'completed', last_error = NULL, completed_at = ${input.now}, updated_at = ${input.now}
     WHERE workspace_id = ${workspaceId} AND id = ${input.jobId} AND status IN ('pending', 'dispatched', 'retrying', 'failed')`);
}
