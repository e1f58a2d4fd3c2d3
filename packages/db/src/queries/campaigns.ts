import { and, desc, eq } from 'drizzle-orm';
import { newId, type CampaignStatus, type TemplateRef } from '@mos/core';
import type { DbOrTx } from '../client';
import { broadcasts, campaigns } from '../schema/index';

export type CampaignRow = typeof campaigns.$inferSelect;

export interface NewCampaign {
  name: string;
  template: TemplateRef;
  segment: Record<string, unknown>;
  scheduledAt: Date | null;
  createdBy: string | null;
}

export async function insertCampaign(db: DbOrTx, workspaceId: string, c: NewCampaign, now: Date): Promise<CampaignRow> {
  const [row] = await db
    .insert(campaigns)
    .values({ id: newId('campaign', now.getTime()), workspaceId, ...c, status: 'draft', createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/**
 * One campaign of the workspace. `lock: 'nowait'` takes its row lock or fails at once with
 * PostgreSQL 55P03 (see isLockNotAvailable): callers that hold it while the broadcast code
 * works on other pool connections must not queue connections behind it.
 */
export async function getCampaignRow(db: DbOrTx, workspaceId: string, id: string, lock?: 'wait' | 'nowait'): Promise<CampaignRow | undefined> {
  const q = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.id, id)));
  const [row] = lock ? await q.for('update', lock === 'nowait' ? { noWait: true } : {}) : await q;
  return row;
}

/** Newest first. */
export async function listCampaignRows(db: DbOrTx, workspaceId: string, opts: { limit: number; offset: number }): Promise<CampaignRow[]> {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.workspaceId, workspaceId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

export interface CampaignSummaryRow {
  id: string;
  name: string;
  status: CampaignStatus;
  template: TemplateRef;
  broadcastStatus: string | null;
  broadcastStartedAt: Date | null;
}

/** Newest first, with the broadcast's status beside each (one query, no counts: the runtime snapshot). */
export async function listCampaignSummaries(db: DbOrTx, workspaceId: string, limit: number): Promise<CampaignSummaryRow[]> {
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      status: campaigns.status,
      template: campaigns.template,
      broadcastStatus: broadcasts.status,
      broadcastStartedAt: broadcasts.startedAt,
    })
    .from(campaigns)
    .leftJoin(broadcasts, and(eq(broadcasts.workspaceId, campaigns.workspaceId), eq(broadcasts.id, campaigns.broadcastId)))
    .where(eq(campaigns.workspaceId, workspaceId))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(limit);
}

export async function updateCampaignRow(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<typeof campaigns.$inferInsert, 'name' | 'status' | 'template' | 'segment' | 'scheduledAt' | 'broadcastId' | 'archivedAt'>>,
  now: Date,
): Promise<CampaignRow | undefined> {
  const [row] = await db
    .update(campaigns)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(campaigns.workspaceId, workspaceId), eq(campaigns.id, id)))
    .returning();
  return row;
}

/** True for PostgreSQL's lock_not_available (a NOWAIT lock held elsewhere), whatever driver wrapper carries it. */
export function isLockNotAvailable(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '55P03') return true;
  }
  return false;
}
