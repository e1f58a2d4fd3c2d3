import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { webhookDeliveries } from '../schema/index';

/**
 * Normalized deliveries (`del_`), read side and the replay's pending row. The worker writes
 * outcomes with finishWebhookProcessing (webhook-processing.ts), which upserts on
 * (workspace, job): a pending row created here for a replay job is updated in place.
 */

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function listWebhookDeliveries(db: DbOrTx, workspaceId: string, opts: { limit: number; offset?: number }): Promise<WebhookDeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.workspaceId, workspaceId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(opts.limit)
    .offset(opts.offset ?? 0);
}

export async function getWebhookDelivery(db: DbOrTx, workspaceId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.id, id)));
  return row;
}

export async function insertPendingDelivery(
  db: DbOrTx,
  workspaceId: string,
  row: { id: string; webhookEventId: string; jobId: string; topic: string; now: Date },
): Promise<WebhookDeliveryRow> {
  const [created] = await db
    .insert(webhookDeliveries)
    .values({ id: row.id, workspaceId, webhookEventId: row.webhookEventId, jobId: row.jobId, topic: row.topic, status: 'pending', createdAt: row.now })
    .returning();
  return created!;
}
