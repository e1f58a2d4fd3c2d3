import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, tstz, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * Every request to the provider webhook paths, stored before the 200 regardless of
 * signature or parse outcome. Replays are new rows pointing at the original
 * (`replay_of_id`); the original is never updated by a replay.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    topic: text('topic').notNull(),
    requestId: text('request_id').notNull(),
    deliveryId: text('delivery_id'),
    /** Set when a valid-signature delivery repeats an already-queued delivery id. */
    duplicateOfId: text('duplicate_of_id'),
    signatureValid: boolean('signature_valid').notNull(),
    /** null when valid; otherwise missing | malformed | mismatch | no_secret */
    signatureError: text('signature_error'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    query: jsonb('query').$type<Record<string, unknown>>().notNull(),
    bodyHash: text('body_hash').notNull(),
    rawBody: bytea('raw_body'),
    bodySize: integer('body_size').notNull(),
    accountId: text('account_id'),
    phoneNumberId: text('phone_number_id'),
    displayPhoneNumber: text('display_phone_number'),
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
    /** pending | processed | failed | skipped (invalid signature) | duplicate */
    normalizationStatus: text('normalization_status').notNull(),
    responseStatus: integer('response_status').notNull(),
    /** Time from request start to the commit of this row, in microseconds. */
    ingestMicros: integer('ingest_micros'),
    /** Set when raw_body was removed (GDPR erasure or retention); reason gdpr_erasure | retention. */
    rawBodyRedactedAt: tstz('raw_body_redacted_at'),
    rawBodyRedaction: text('raw_body_redaction'),
    replayOfId: text('replay_of_id'),
    replayedBy: text('replayed_by'),
    /**
     * The Temporal run that last applied or failed this event: a webhook-batch run, or the
     * event's own `webhook-<evt id>` run when it was handed off. Written in the transaction that
     * records the outcome, so the link an operator follows is the run that did the work.
     */
    workflowId: text('workflow_id'),
    runId: text('run_id'),
    receivedAt: tstz('received_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_events_ws_received_idx').on(t.workspaceId, t.receivedAt),
    index('webhook_events_ws_topic_idx').on(t.workspaceId, t.topic, t.receivedAt),
    index('webhook_events_ws_delivery_idx').on(t.workspaceId, t.deliveryId),
    // Operator filters and the detail view's list of replays.
    index('webhook_events_ws_status_idx').on(t.workspaceId, t.normalizationStatus, t.receivedAt),
    index('webhook_events_ws_replay_of_idx').on(t.workspaceId, t.replayOfId),
  ],
);
