import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { newId, type JourneyRunStatus } from '@mos/core';
import type { DbOrTx } from '../client';
import { journeyRuns, journeys } from '../schema/index';

/** Journey definitions, managed by operators (the runs are written by the journey machinery). */
export type JourneyRow = typeof journeys.$inferSelect;
export type NewJourney = Pick<typeof journeys.$inferInsert, 'name' | 'triggerType' | 'trigger' | 'steps' | 'createdBy'>;
export type JourneyPatch = Partial<Pick<typeof journeys.$inferInsert, 'name' | 'status' | 'triggerType' | 'trigger' | 'steps' | 'version'>>;

export async function insertJourney(db: DbOrTx, workspaceId: string, values: NewJourney, now: Date): Promise<JourneyRow> {
  const [row] = await db
    .insert(journeys)
    .values({ id: newId('journey', now.getTime()), workspaceId, ...values, status: 'draft', version: 1, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** `lock` holds the row for the caller's transaction, so two edits or transitions cannot interleave. */
export async function getJourney(db: DbOrTx, workspaceId: string, id: string, lock = false): Promise<JourneyRow | undefined> {
  const q = db
    .select()
    .from(journeys)
    .where(and(eq(journeys.workspaceId, workspaceId), eq(journeys.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** Newest first. */
export async function listJourneyRows(db: DbOrTx, workspaceId: string, limit: number): Promise<JourneyRow[]> {
  return db.select().from(journeys).where(eq(journeys.workspaceId, workspaceId)).orderBy(desc(journeys.createdAt), desc(journeys.id)).limit(limit);
}

export async function updateJourney(db: DbOrTx, workspaceId: string, id: string, patch: JourneyPatch, now: Date): Promise<JourneyRow | undefined> {
  const [row] = await db
    .update(journeys)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(journeys.workspaceId, workspaceId), eq(journeys.id, id)))
    .returning();
  return row;
}

/**
 * What operators see of a run: never `personalization` (the trigger's personal data) nor the
 * snapshotted steps, so neither column is even read.
 */
const runListing = {
  id: journeyRuns.id,
  journeyId: journeyRuns.journeyId,
  journeyVersion: journeyRuns.journeyVersion,
  contactId: journeyRuns.contactId,
  status: journeyRuns.status,
  currentStep: journeyRuns.currentStep,
  triggerType: journeyRuns.triggerType,
  triggerRef: journeyRuns.triggerRef,
  workflowId: journeyRuns.workflowId,
  failureReason: journeyRuns.failureReason,
  startedAt: journeyRuns.startedAt,
  finishedAt: journeyRuns.finishedAt,
  createdAt: journeyRuns.createdAt,
};
export type JourneyRunListing = Pick<typeof journeyRuns.$inferSelect, keyof typeof runListing>;

/** A journey's runs, newest first, keyset pages by run id (ids sort by creation time). */
export async function listJourneyRunListings(
  db: DbOrTx,
  workspaceId: string,
  journeyId: string,
  opts: { cursor?: string; limit: number; status?: JourneyRunStatus },
): Promise<JourneyRunListing[]> {
  const where: SQL[] = [eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.journeyId, journeyId)];
  if (opts.cursor) where.push(lt(journeyRuns.id, opts.cursor));
  if (opts.status) where.push(eq(journeyRuns.status, opts.status));
  return db
    .select(runListing)
    .from(journeyRuns)
    .where(and(...where))
    .orderBy(desc(journeyRuns.id))
    .limit(opts.limit);
}
