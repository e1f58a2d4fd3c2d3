import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { webhookRejections } from '../schema/index';

/** One row per provider webhook request whose signature did not verify (the envelope is in webhook_events). */

export type WebhookRejectionRow = typeof webhookRejections.$inferSelect;

export async function insertWebhookRejection(
  db: DbOrTx,
  workspaceId: string,
  row: { id: string; webhookEventId: string; source: string; reason: string; receivedAt: Date },
): Promise<void> {
  await db.insert(webhookRejections).values({ ...row, workspaceId, topic: 'invalid_signature', signatureValid: false });
}

export async function listWebhookRejections(db: DbOrTx, workspaceId: string, opts: { limit: number; offset?: number }): Promise<WebhookRejectionRow[]> {
  return db
    .select()
    .from(webhookRejections)
    .where(eq(webhookRejections.workspaceId, workspaceId))
    .orderBy(desc(webhookRejections.receivedAt), desc(webhookRejections.id))
    .limit(opts.limit)
    .offset(opts.offset ?? 0);
}

export async function getWebhookRejection(db: DbOrTx, workspaceId: string, id: string): Promise<WebhookRejectionRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookRejections)
    .where(and(eq(webhookRejections.workspaceId, workspaceId), eq(webhookRejections.id, id)));
  return row;
}
