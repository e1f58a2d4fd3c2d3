import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { JourneyRunStatus, JourneyStep, JourneyTriggerType } from '@mos/core';
import type { DbOrTx } from '../client';
import { contacts, journeyRuns } from '../schema/index';

export type JourneyRunRow = typeof journeyRuns.$inferSelect;

export interface NewJourneyRun {
  id: string;
  journeyId: string;
  journeyVersion: number;
  steps: JourneyStep[];
  contactId: string;
  triggerType: JourneyTriggerType;
  triggerRef: string;
  personalization: Record<string, unknown>;
  workflowId: string;
}

/**
 * The run's row, unless one exists under its workflow id (a trigger applied twice, a replay):
 * returns the new row, or undefined when it already existed.
 */
export async function insertJourneyRun(db: DbOrTx, workspaceId: string, run: NewJourneyRun, now: Date): Promise<JourneyRunRow | undefined> {
  const [row] = await db
    .insert(journeyRuns)
    .values({ ...run, workspaceId, status: 'pending', createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: journeyRuns.workflowId })
    .returning();
  return row;
}

export async function getJourneyRun(db: DbOrTx, workspaceId: string, runId: string): Promise<JourneyRunRow | undefined> {
  const [row] = await db
    .select()
    .from(journeyRuns)
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId)));
  return row;
}

/** Runs of a contact that may still be waiting for a reply. */
export async function liveRunsOfContact(db: DbOrTx, workspaceId: string, contactId: string): Promise<Pick<JourneyRunRow, 'id' | 'workflowId' | 'journeyId'>[]> {
  return db
    .select({ id: journeyRuns.id, workflowId: journeyRuns.workflowId, journeyId: journeyRuns.journeyId })
    .from(journeyRuns)
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.contactId, contactId), inArray(journeyRuns.status, ['pending', 'running'])))
    .limit(50);
}

/** The workflow began: pending -> running (a finished run is never reopened). */
export async function markJourneyRunStarted(db: DbOrTx, workspaceId: string, runId: string, now: Date): Promise<void> {
  await db
    .update(journeyRuns)
    .set({ status: 'running', startedAt: sql`coalesce(${journeyRuns.startedAt}, ${now})`, updatedAt: now })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId), eq(journeyRuns.status, 'pending')));
}

export async function setJourneyRunStep(db: DbOrTx, workspaceId: string, runId: string, stepId: string, now: Date): Promise<void> {
  await db
    .update(journeyRuns)
    .set({ currentStep: stepId, updatedAt: now })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId), inArray(journeyRuns.status, ['pending', 'running'])));
}

export async function finishJourneyRun(
  db: DbOrTx,
  workspaceId: string,
  runId: string,
  input: { status: Extract<JourneyRunStatus, 'completed' | 'exited' | 'failed' | 'cancelled'>; failureReason?: string | null; now: Date },
): Promise<void> {
  await db
    .update(journeyRuns)
    .set({ status: input.status, failureReason: input.failureReason?.slice(0, 500) ?? null, finishedAt: input.now, updatedAt: input.now })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId), inArray(journeyRuns.status, ['pending', 'running'])));
}

export async function recordJourneyReply(db: DbOrTx, workspaceId: string, runId: string, at: Date): Promise<void> {
  await db
    .update(journeyRuns)
    .set({ lastReplyAt: sql`greatest(${journeyRuns.lastReplyAt}, ${at})`, updatedAt: sql`now()` })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId)));
}

/** The contact as a branch or a template sees it: fields and properties (null when erased). */
export async function journeyContactView(db: DbOrTx, workspaceId: string, contactId: string): Promise<Record<string, unknown> | null> {
  const [c] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)));
  if (!c || c.anonymizedAt) return null;
  return {
    ...c.properties,
    name: c.name ?? c.profileName,
    email: c.email,
    locale: c.locale,
    phone_number: c.phoneNumber,
    external_reference_id: c.externalReferenceId,
    source_type: c.sourceType,
    subscriber_status: c.subscriberStatus,
  };
}

export interface ClaimedJourneyJob {
  id: string;
  workspaceId: string;
  jobType: string;
  attempts: number;
  payload: Record<string, unknown>;
}

/** Locks due jobs of the journey types for the caller's transaction (SKIP LOCKED: several workers share them). */
export async function claimJourneyJobs(tx: DbOrTx, jobTypes: string[], limit: number, now: Date): Promise<ClaimedJourneyJob[]> {
  const res = await tx.execute<{ id: string; workspace_id: string; job_type: string; attempts: number; payload: Record<string, unknown> }>(sql`
    SELECT id, workspace_id, job_type, attempts, payload FROM outbox_jobs
     WHERE status = 'pending' AND job_type IN (${sql.join(
       jobTypes.map((t) => sql`${t}`),
       sql`, `,
     )}) AND available_at <= ${now}
     ORDER BY available_at, id
     LIMIT ${limit}
       FOR UPDATE SKIP LOCKED`);
  return res.rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id, jobType: r.job_type, attempts: r.attempts, payload: r.payload }));
}

/** failed -> running: an operator reset the run's workflow in the Temporal UI, so it walks again. */
export async function reopenFailedJourneyRun(db: DbOrTx, workspaceId: string, runId: string, now: Date): Promise<void> {
  await db
    .update(journeyRuns)
    .set({ status: 'running', failureReason: null, finishedAt: null, updatedAt: now })
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, runId), eq(journeyRuns.status, 'failed')));
}

/** A schedule journey's audience, by contact id: subscribed, not erased, with a phone number. */
export async function journeyAudiencePage(
  db: DbOrTx,
  workspaceId: string,
  opts: { after: string | null; limit: number; updatedSince: Date | null },
): Promise<string[]> {
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.workspaceId, workspaceId),
        eq(contacts.subscriberStatus, 'subscribed'),
        isNull(contacts.anonymizedAt),
        isNotNull(contacts.phoneNumber),
        opts.after ? gt(contacts.id, opts.after) : undefined,
        opts.updatedSince ? gte(contacts.updatedAt, opts.updatedSince) : undefined,
      ),
    )
    .orderBy(asc(contacts.id))
    .limit(opts.limit);
  return rows.map((r) => r.id);
}
