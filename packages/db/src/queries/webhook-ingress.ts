import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { OUTBOX_CHANNEL } from '@mos/core';
import { insertOutboxJobSql, type NewOutboxJob } from './outbox-jobs';
import type { NewWebhookEvent } from './webhook-events';

/**
 * The ingress hot path in ONE statement each (a single statement is its own transaction):
 * one round trip instead of BEGIN / insert / insert / COMMIT, which is most of the cost of a
 * delivery. Data-modifying CTEs always run to completion, and all of it commits or none.
 */

/** Every value explicitly typed: in INSERT ... SELECT, Postgres does not infer parameter types from the target. */
function eventValues(workspaceId: string, e: NewWebhookEvent): SQL {
  const t = (v: string | null | undefined) => sql`${v ?? null}::text`;
  const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
  return sql`${t(e.id)}, ${t(workspaceId)}, ${t(e.source)}, ${t(e.topic)}, ${t(e.requestId)}, ${t(e.deliveryId)}, ${t(e.duplicateOfId)},
    ${e.signatureValid}::boolean, ${t(e.signatureError)}, ${json(e.headers)}, ${json(e.query)}, ${t(e.bodyHash)}, ${e.rawBody ?? null}::bytea,
    ${e.bodySize}::int, ${t(e.accountId)}, ${t(e.phoneNumberId)}, ${t(e.displayPhoneNumber)}, ${json(e.summary)},
    ${t(e.normalizationStatus)}, ${e.responseStatus}::int, ${e.ingestMicros ?? null}::int, ${t(e.replayOfId)}, ${t(e.replayedBy)},
    ${e.receivedAt}::timestamptz`;
}

const EVENT_COLUMNS = sql.raw(`id, workspace_id, source, topic, request_id, delivery_id, duplicate_of_id, signature_valid, signature_error,
  headers, query, body_hash, raw_body, body_size, account_id, phone_number_id, display_phone_number, summary,
  normalization_status, response_status, ingest_micros, replay_of_id, replayed_by, received_at`);

/**
 * Valid signature: inserts the outbox job unless its dedup key is taken and, only if the job
 * went in, the event row, and queues the relay's NOTIFY. Returns the job id, or null when
 * the key was taken, in which case NOTHING was written and the caller stores the duplicate.
 */
export async function storeSignedDelivery(db: DbOrTx, workspaceId: string, event: NewWebhookEvent, job: NewOutboxJob): Promise<string | null> {
  const res = await db.execute<{ id: string }>(sql`
    WITH job AS (${insertOutboxJobSql(workspaceId, job)}), evt AS (
      INSERT INTO webhook_events (${EVENT_COLUMNS})
      SELECT ${eventValues(workspaceId, event)} WHERE EXISTS (SELECT 1 FROM job)
    )
    SELECT id, pg_notify(${OUTBOX_CHANNEL}, id) FROM job`);
  return res.rows[0]?.id ?? null;
}

/** Invalid signature: the event row and its rejection row, together or not at all. */
export async function storeRejectedDelivery(db: DbOrTx, workspaceId: string, event: NewWebhookEvent, rejection: { id: string; reason: string }): Promise<void> {
  await db.execute(sql`
    WITH evt AS (
      INSERT INTO webhook_events (${EVENT_COLUMNS}) VALUES (${eventValues(workspaceId, event)})
      RETURNING id, source, received_at
    )
    INSERT INTO webhook_rejections (id, workspace_id, webhook_event_id, source, topic, reason, signature_valid, received_at)
    SELECT ${rejection.id}, ${workspaceId}, id, source, 'invalid_signature', ${rejection.reason}, false, received_at FROM evt`);
}
