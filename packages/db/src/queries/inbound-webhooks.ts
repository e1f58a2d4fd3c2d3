import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { newId, type InboundRunStatus } from '@mos/core';
import type { DbOrTx } from '../client';
import { inboundWebhookRuns, inboundWebhooks, outboundMessages } from '../schema/index';

export type InboundWebhookRow = typeof inboundWebhooks.$inferSelect;
export type InboundWebhookRunRow = typeof inboundWebhookRuns.$inferSelect;
export type NewInboundWebhook = Omit<typeof inboundWebhooks.$inferInsert, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt'>;

export async function insertInboundWebhook(db: DbOrTx, workspaceId: string, values: NewInboundWebhook, now: Date): Promise<InboundWebhookRow> {
  const [row] = await db
    .insert(inboundWebhooks)
    .values({ id: newId('inboundWebhook', now.getTime()), workspaceId, ...values, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function getInboundWebhook(db: DbOrTx, workspaceId: string, id: string, lock = false): Promise<InboundWebhookRow | undefined> {
  const q = db
    .select()
    .from(inboundWebhooks)
    .where(and(eq(inboundWebhooks.workspaceId, workspaceId), eq(inboundWebhooks.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function getInboundWebhookBySlugIn(db: DbOrTx, workspaceId: string, slug: string): Promise<InboundWebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(inboundWebhooks)
    .where(and(eq(inboundWebhooks.workspaceId, workspaceId), eq(inboundWebhooks.slug, slug)));
  return row;
}

/**
 * The one lookup that is not workspace-scoped: the URL slug is how an inbound webhook names its
 * workspace (spec: the workspace is resolved from the slug only).
 */
export async function findInboundWebhookBySlug(db: DbOrTx, slug: string): Promise<InboundWebhookRow | undefined> {
  const [row] = await db.select().from(inboundWebhooks).where(eq(inboundWebhooks.slug, slug));
  return row;
}

export async function listInboundWebhooks(db: DbOrTx, workspaceId: string): Promise<InboundWebhookRow[]> {
  return db.select().from(inboundWebhooks).where(eq(inboundWebhooks.workspaceId, workspaceId)).orderBy(desc(inboundWebhooks.id));
}

export async function updateInboundWebhook(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  patch: Partial<NewInboundWebhook>,
  now: Date,
): Promise<InboundWebhookRow | undefined> {
  const [row] = await db
    .update(inboundWebhooks)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(inboundWebhooks.workspaceId, workspaceId), eq(inboundWebhooks.id, id)))
    .returning();
  return row;
}

/** Its runs go with it (cascade): they describe requests to a URL that no longer exists. */
export async function deleteInboundWebhook(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const res = await db
    .delete(inboundWebhooks)
    .where(and(eq(inboundWebhooks.workspaceId, workspaceId), eq(inboundWebhooks.id, id)))
    .returning({ id: inboundWebhooks.id });
  return res.length > 0;
}

export type NewInboundRun = Omit<typeof inboundWebhookRuns.$inferInsert, 'id' | 'workspaceId'>;

export async function insertInboundRun(db: DbOrTx, workspaceId: string, values: NewInboundRun): Promise<InboundWebhookRunRow> {
  const [row] = await db
    .insert(inboundWebhookRuns)
    .values({ id: newId('inboundWebhookRun', values.receivedAt.getTime()), workspaceId, ...values })
    .returning();
  return row!;
}

export async function updateInboundRun(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  patch: Partial<NewInboundRun> & { status: InboundRunStatus },
): Promise<InboundWebhookRunRow> {
  const [row] = await db
    .update(inboundWebhookRuns)
    .set(patch)
    .where(and(eq(inboundWebhookRuns.workspaceId, workspaceId), eq(inboundWebhookRuns.id, id)))
    .returning();
  return row!;
}

/**
 * Serialises every request carrying one Idempotency-Key for one configuration until the
 * caller's transaction ends, so twenty concurrent repeats see the first one's outcome rather
 * than racing it. The partial unique index on reserving runs is the backstop.
 */
export async function lockInboundIdempotencyKey(tx: DbOrTx, inboundWebhookId: string, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`inbound:${inboundWebhookId}:${key}`}, 0))`);
}

export async function findKeyHolderRun(db: DbOrTx, workspaceId: string, inboundWebhookId: string, key: string): Promise<InboundWebhookRunRow | undefined> {
  const [row] = await db
    .select()
    .from(inboundWebhookRuns)
    .where(
      and(
        eq(inboundWebhookRuns.workspaceId, workspaceId),
        eq(inboundWebhookRuns.inboundWebhookId, inboundWebhookId),
        eq(inboundWebhookRuns.idempotencyKey, key),
        eq(inboundWebhookRuns.reservesKey, true),
      ),
    );
  return row;
}

/** A run with the live state of the message it queued (status and history come from the message). */
export interface InboundRunWithMessage extends InboundWebhookRunRow {
  messageStatus: string | null;
  messageStatusHistory: unknown;
  messageError: unknown;
}

const runWithMessage = {
  run: inboundWebhookRuns,
  messageStatus: outboundMessages.status,
  messageStatusHistory: outboundMessages.statusHistory,
  messageError: outboundMessages.error,
};

function flatten(r: { run: InboundWebhookRunRow; messageStatus: string | null; messageStatusHistory: unknown; messageError: unknown }): InboundRunWithMessage {
  return { ...r.run, messageStatus: r.messageStatus, messageStatusHistory: r.messageStatusHistory, messageError: r.messageError };
}

const joinMessage = and(eq(outboundMessages.workspaceId, inboundWebhookRuns.workspaceId), eq(outboundMessages.id, inboundWebhookRuns.messageId));

export async function listInboundRuns(
  db: DbOrTx,
  workspaceId: string,
  inboundWebhookId: string,
  opts: { cursor?: string; limit: number; status?: InboundRunStatus },
): Promise<InboundRunWithMessage[]> {
  const where: SQL[] = [eq(inboundWebhookRuns.workspaceId, workspaceId), eq(inboundWebhookRuns.inboundWebhookId, inboundWebhookId)];
  if (opts.cursor) where.push(lt(inboundWebhookRuns.id, opts.cursor));
  if (opts.status) where.push(eq(inboundWebhookRuns.status, opts.status));
  const rows = await db
    .select(runWithMessage)
    .from(inboundWebhookRuns)
    .leftJoin(outboundMessages, joinMessage)
    .where(and(...where))
    .orderBy(desc(inboundWebhookRuns.id))
    .limit(opts.limit);
  return rows.map(flatten);
}

export async function getInboundRun(db: DbOrTx, workspaceId: string, runId: string): Promise<InboundRunWithMessage | undefined> {
  const [row] = await db
    .select(runWithMessage)
    .from(inboundWebhookRuns)
    .leftJoin(outboundMessages, joinMessage)
    .where(and(eq(inboundWebhookRuns.workspaceId, workspaceId), eq(inboundWebhookRuns.id, runId)));
  return row ? flatten(row) : undefined;
}

/** For the contact's GDPR export: the runs that named them. */
export async function listContactInboundRuns(db: DbOrTx, workspaceId: string, contactId: string): Promise<InboundWebhookRunRow[]> {
  return db
    .select()
    .from(inboundWebhookRuns)
    .where(and(eq(inboundWebhookRuns.workspaceId, workspaceId), eq(inboundWebhookRuns.contactId, contactId)))
    .orderBy(inboundWebhookRuns.id);
}
