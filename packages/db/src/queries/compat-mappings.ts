import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { compatMappings, journeys } from '../schema/index';

/**
 * Operators' management of legacy trigger paths -> journeys (the ingress reads them in
 * compat-ingress.ts). Every query here is workspace-scoped; the uniqueness across workspaces
 * is the indexes' (an insert that takes a held path raises 23505 for the caller to map).
 */
export type CompatMappingRecord = typeof compatMappings.$inferSelect;
export type NewCompatMapping = Pick<
  typeof compatMappings.$inferInsert,
  'kind' | 'organizationId' | 'flowId' | 'triggerId' | 'legacyPath' | 'journeyId' | 'createdBy'
>;
/** A mapping with its journey's name, for lists. */
export type CompatMappingListing = CompatMappingRecord & { journeyName: string };

export async function insertCompatMapping(db: DbOrTx, workspaceId: string, values: NewCompatMapping, now: Date): Promise<CompatMappingRecord> {
  const [row] = await db
    .insert(compatMappings)
    .values({ id: newId('compatMapping', now.getTime()), workspaceId, ...values, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

// The journey is joined on the workspace too: a listing never names another workspace's journey.
const withJourney = and(eq(journeys.workspaceId, compatMappings.workspaceId), eq(journeys.id, compatMappings.journeyId));

/** Newest first; optionally one journey's. */
export async function listCompatMappingListings(db: DbOrTx, workspaceId: string, opts: { journeyId?: string; limit: number }): Promise<CompatMappingListing[]> {
  const where: SQL[] = [eq(compatMappings.workspaceId, workspaceId)];
  if (opts.journeyId) where.push(eq(compatMappings.journeyId, opts.journeyId));
  const rows = await db
    .select({ mapping: compatMappings, journeyName: journeys.name })
    .from(compatMappings)
    .innerJoin(journeys, withJourney)
    .where(and(...where))
    .orderBy(desc(compatMappings.createdAt), desc(compatMappings.id))
    .limit(opts.limit);
  return rows.map((r) => ({ ...r.mapping, journeyName: r.journeyName }));
}

export async function getCompatMappingListing(db: DbOrTx, workspaceId: string, id: string): Promise<CompatMappingListing | undefined> {
  const [row] = await db
    .select({ mapping: compatMappings, journeyName: journeys.name })
    .from(compatMappings)
    .innerJoin(journeys, withJourney)
    .where(and(eq(compatMappings.workspaceId, workspaceId), eq(compatMappings.id, id)));
  return row ? { ...row.mapping, journeyName: row.journeyName } : undefined;
}

export async function deleteCompatMapping(db: DbOrTx, workspaceId: string, id: string): Promise<CompatMappingRecord | undefined> {
  const [row] = await db
    .delete(compatMappings)
    .where(and(eq(compatMappings.workspaceId, workspaceId), eq(compatMappings.id, id)))
    .returning();
  return row;
}

export async function countCompatMappingsOfJourney(db: DbOrTx, workspaceId: string, journeyId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(compatMappings)
    .where(and(eq(compatMappings.workspaceId, workspaceId), eq(compatMappings.journeyId, journeyId)));
  return row?.n ?? 0;
}
