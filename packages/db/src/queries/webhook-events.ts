import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { webhookEvents } from '../schema/index';

/** Stored provider webhook envelopes: one row per request (or replay), never updated by a replay. */

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type NewWebhookEvent = Omit<typeof webhookEvents.$inferInsert, 'workspaceId' | 'createdAt'>;

export async function insertWebhookEvent(db: DbOrTx, workspaceId: string, row: NewWebhookEvent): Promise<void> {
  await db.insert(webhookEvents).values({ ...row, workspaceId });
}

export async function getWebhookEvent(db: DbOrTx, workspaceId: string, id: string): Promise<WebhookEventRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.id, id)));
  return row;
}

export interface WebhookEventFilter {
  topic?: string;
  /** normalization status */
  status?: string;
  source?: string;
  limit: number;
  offset?: number;
}

/** The listing columns: everything but the raw body and headers, which only the detail view needs. */
const listing = {
  id: webhookEvents.id,
  source: webhookEvents.source,
  topic: webhookEvents.topic,
  deliveryId: webhookEvents.deliveryId,
  signatureValid: webhookEvents.signatureValid,
  signatureError: webhookEvents.signatureError,
  bodyHash: webhookEvents.bodyHash,
  bodySize: webhookEvents.bodySize,
  normalizationStatus: webhookEvents.normalizationStatus,
  duplicateOfId: webhookEvents.duplicateOfId,
  replayOfId: webhookEvents.replayOfId,
  receivedAt: webhookEvents.receivedAt,
};
export type WebhookEventListing = { [K in keyof typeof listing]: WebhookEventRow[K] };

/** Newest first; filters are exact matches. */
export async function listWebhookEvents(db: DbOrTx, workspaceId: string, filter: WebhookEventFilter): Promise<WebhookEventListing[]> {
  const conds: SQL[] = [eq(webhookEvents.workspaceId, workspaceId)];
  if (filter.topic) conds.push(eq(webhookEvents.topic, filter.topic));
  if (filter.status) conds.push(eq(webhookEvents.normalizationStatus, filter.status));
  if (filter.source) conds.push(eq(webhookEvents.source, filter.source));
  return db
    .select(listing)
    .from(webhookEvents)
    .where(and(...conds))
    .orderBy(desc(webhookEvents.receivedAt), desc(webhookEvents.id))
    .limit(filter.limit)
    .offset(filter.offset ?? 0);
}

/** Replays made from one event, oldest first. */
export async function listReplaysOf(db: DbOrTx, workspaceId: string, id: string) {
  return db
    .select({
      id: webhookEvents.id,
      replayedBy: webhookEvents.replayedBy,
      receivedAt: webhookEvents.receivedAt,
      normalizationStatus: webhookEvents.normalizationStatus,
    })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.replayOfId, id)))
    .orderBy(asc(webhookEvents.receivedAt), asc(webhookEvents.id));
}
