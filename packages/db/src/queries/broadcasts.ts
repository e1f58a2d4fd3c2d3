import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { broadcastMessageKey, newId, type BroadcastSegment, type BroadcastStatus, type BroadcastTemplate, type OutboundContent } from '@mos/core';
import type { DbOrTx } from '../client';
import { broadcasts } from '../schema/index';

export type BroadcastRow = typeof broadcasts.$inferSelect;

export interface NewBroadcast {
  name: string | null;
  template: BroadcastTemplate;
  segment: BroadcastSegment;
  phoneNumberId: string;
  status: BroadcastStatus;
  scheduledAt: Date | null;
}

export async function insertBroadcast(db: DbOrTx, workspaceId: string, b: NewBroadcast, now: Date): Promise<BroadcastRow> {
  const id = newId('broadcast', now.getTime());
  const [row] = await db
    .insert(broadcasts)
    .values({ id, workspaceId, ...b, workflowId: `broadcast-${id}`, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function getBroadcastRow(db: DbOrTx, workspaceId: string, id: string, lock = false): Promise<BroadcastRow | undefined> {
  const q = db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.workspaceId, workspaceId), eq(broadcasts.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function listBroadcastRows(db: DbOrTx, workspaceId: string, opts: { cursor?: string; limit: number }): Promise<BroadcastRow[]> {
  const where: SQL[] = [eq(broadcasts.workspaceId, workspaceId)];
  if (opts.cursor) where.push(lt(broadcasts.id, opts.cursor));
  return db
    .select()
    .from(broadcasts)
    .where(and(...where))
    .orderBy(desc(broadcasts.id))
    .limit(opts.limit);
}

export async function updateBroadcast(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  patch: Partial<typeof broadcasts.$inferInsert>,
): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .update(broadcasts)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(broadcasts.workspaceId, workspaceId), eq(broadcasts.id, id)))
    .returning();
  return row;
}

/** Messages per status (queued includes those in flight). */
export async function broadcastStatusCounts(db: DbOrTx, workspaceId: string, broadcastId: string): Promise<Record<string, number>> {
  const res = await db.execute<{ status: string; n: number }>(sql`
    SELECT status, count(*)::int AS n FROM outbound_messages WHERE workspace_id = ${workspaceId} AND broadcast_id = ${broadcastId} GROUP BY status`);
  const out: Record<string, number> = {};
  for (const r of res.rows) out[r.status] = r.n;
  return out;
}

/** Its queued messages become `skipped` (cancelled); messages already in flight finish. */
export async function skipQueuedBroadcastMessages(db: DbOrTx, workspaceId: string, broadcastId: string, now: Date): Promise<number> {
  const error = JSON.stringify({ code: 'broadcast_cancelled', title: 'The broadcast was cancelled before this message was sent' });
  const entry = JSON.stringify([{ status: 'skipped', at: now.toISOString() }]);
  const res = await db.execute(sql`
    UPDATE outbound_messages SET status = 'skipped', error = ${error}::jsonb, status_history = status_history || ${entry}::jsonb, updated_at = ${now}
     WHERE workspace_id = ${workspaceId} AND broadcast_id = ${broadcastId} AND status = 'queued'`);
  return res.rowCount ?? 0;
}

type SegmentContact = {
  id: string;
  phone_number: string | null;
  subscriber_status: string;
  anonymized_at: Date | null;
};

/**
 * Enqueues the next page of a broadcast's segment (contacts by id after the cursor), one
 * message per contact under the key `brd_…:<contact id>`, so a page enqueued twice (a retried
 * activity) adds nobody twice. Contacts that cannot receive it (unsubscribed, blocked, erased)
 * get a `skipped` message, so the counts account for every contact of the segment.
 */
export async function enqueueBroadcastPage(
  tx: DbOrTx,
  workspaceId: string,
  b: BroadcastRow,
  pageSize: number,
  now: Date,
): Promise<{ enqueued: number; skipped: number; done: boolean }> {
  const s = b.segment;
  const where: SQL[] = [sql`workspace_id = ${workspaceId}`];
  if (b.enqueueCursor) where.push(sql`id > ${b.enqueueCursor}`);
  if (s.subscriberStatus) where.push(sql`subscriber_status = ${s.subscriberStatus}`);
  if (s.contactIds?.length)
    where.push(
      sql`id IN (${sql.join(
        s.contactIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  if (s.phoneNumbers?.length)
    where.push(
      sql`phone_number IN (${sql.join(
        s.phoneNumbers.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
  if (s.updatedSince) where.push(sql`updated_at >= ${new Date(s.updatedSince)}`);
  const page = await tx.execute<SegmentContact>(sql`
    SELECT id, phone_number, subscriber_status, anonymized_at FROM contacts WHERE ${sql.join(where, sql` AND `)} ORDER BY id LIMIT ${pageSize}`);
  const rows = page.rows;
  let skipped = 0;
  if (rows.length > 0) {
    const content: OutboundContent = { kind: 'template', template: b.template };
    const at = now.toISOString();
    const values = rows.map((c) => {
      const reason = c.anonymized_at || !c.phone_number ? 'contact_erased' : c.subscriber_status !== 'subscribed' ? 'contact_unsubscribed' : null;
      if (reason) skipped += 1;
      const status = reason ? 'skipped' : 'queued';
      const history = reason
        ? [
            { status: 'queued', at },
            { status: 'skipped', at },
          ]
        : [{ status: 'queued', at }];
      const error = reason ? { code: reason, title: reason === 'contact_erased' ? 'The contact was erased' : `The contact is ${c.subscriber_status}` } : null;
      return sql`(${newId('message', now.getTime())}, ${workspaceId}, ${c.id}, ${b.id}, ${b.phoneNumberId}, ${c.phone_number ?? ''}, 'template', ${JSON.stringify(content)}::jsonb,
                  ${broadcastMessageKey(b.id, c.id)}, ${status}, ${JSON.stringify(history)}::jsonb, ${error === null ? null : JSON.stringify(error)}::jsonb, ${now}, ${now}, ${now})`;
    });
    await tx.execute(sql`
      INSERT INTO outbound_messages (id, workspace_id, contact_id, broadcast_id, phone_number_id, to_phone, type, content, idempotency_key, status, status_history, error, not_before, created_at, updated_at)
      VALUES ${sql.join(values, sql`, `)}
      ON CONFLICT (workspace_id, idempotency_key) DO NOTHING`);
  }
  const done = rows.length < pageSize;
  await tx.execute(sql`
    UPDATE broadcasts SET enqueue_cursor = coalesce(${rows[rows.length - 1]?.id ?? null}, enqueue_cursor),
           enqueued = (SELECT count(*)::int FROM outbound_messages WHERE workspace_id = ${workspaceId} AND broadcast_id = ${b.id}),
           enqueue_finished_at = CASE WHEN ${done} THEN ${now}::timestamptz ELSE enqueue_finished_at END, updated_at = ${now}
     WHERE workspace_id = ${workspaceId} AND id = ${b.id}`);
  return { enqueued: rows.length - skipped, skipped, done };
}
