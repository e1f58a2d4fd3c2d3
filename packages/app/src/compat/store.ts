import { escapeNul, newId, PROCESS_WEBHOOK_EVENT, sha256Hex, type CompatEventSummary, type CompatTopic } from '@mos/core';
import {
  findCompatOriginal,
  findOutboxJobByDedupKey,
  insertWebhookEvent,
  lockCompatKey,
  storeSignedDelivery,
  type DbOrTx,
  type NewWebhookEvent,
} from '@mos/db';
import { storableHeaders } from '../webhooks/ingest';

/** How long an identical trigger (same path, same body, no caller key) counts as a retry of the first. */
export const COMPAT_DUPLICATE_WINDOW_MS = 24 * 3600 * 1000;

/** The partner secret never reaches storage (credential headers are dropped by storableHeaders). */
const DROPPED_QUERY = new Set(['secret']);

export interface CompatCall {
  topic: CompatTopic;
  route: string;
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  requestId: string;
  receivedAt: Date;
  /** `key:<caller id>` (Idempotency-Key or a body event id), `body:<sha-256>` (triggers), or null (no dedup). */
  dedup: { kind: 'key' | 'body'; value: string } | null;
  /** Same key, same order: a contact's compat calls apply in receipt order. */
  orderingKey: string | null;
  summary: Omit<CompatEventSummary, 'compat' | 'route' | 'triggerKey' | 'rootEventId'>;
}

export interface StoredCompatCall {
  webhookEventId: string;
  outboxJobId: string;
  /** The first call's event when this one repeats it (then no job of its own). */
  duplicateOf: string | null;
}

function storableQuery(query: CompatCall['query']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) if (!DROPPED_QUERY.has(k)) out[k] = v;
  return escapeNul(out) as Record<string, unknown>;
}

/**
 * Stores the call as a webhook event (source `compat`) with its outbox job and the relay's
 * NOTIFY, in the caller's transaction. A repeat is stored as a duplicate of the first, with no
 * job: under a caller key forever (the outbox's dedup key), under an identical body within
 * COMPAT_DUPLICATE_WINDOW_MS (judged under an advisory lock, so concurrent repeats agree).
 */
export async function storeCompatCall(tx: DbOrTx, workspaceId: string, call: CompatCall): Promise<StoredCompatCall> {
  const eventId = newId('webhookEvent', call.receivedAt.getTime());
  const triggerKey = call.dedup ? `${call.dedup.kind}:${call.dedup.value}` : null;
  const summary: CompatEventSummary = { compat: call.topic, route: call.route, triggerKey, rootEventId: eventId, ...call.summary };
  const event = (duplicateOfId: string | null): NewWebhookEvent => ({
    id: eventId,
    source: 'compat',
    topic: call.topic,
    requestId: call.requestId,
    // The dedup key names what was repeated; a body hash and a caller key are not personal data.
    deliveryId: triggerKey ? sha256Hex(`${call.topic}:${call.route}:${summary.mappingId ?? ''}:${triggerKey}`) : null,
    duplicateOfId,
    signatureValid: true,
    signatureError: null,
    headers: storableHeaders(call.headers),
    query: storableQuery(call.query),
    bodyHash: sha256Hex(call.rawBody),
    rawBody: call.rawBody,
    bodySize: call.rawBody.length,
    accountId: null,
    phoneNumberId: null,
    displayPhoneNumber: null,
    summary: { ...summary },
    normalizationStatus: duplicateOfId ? 'duplicate' : 'pending',
    responseStatus: 200,
    ingestMicros: null,
    receivedAt: call.receivedAt,
  });
  const deliveryId = event(null).deliveryId;

  if (call.dedup?.kind === 'body' && deliveryId) {
    await lockCompatKey(tx, workspaceId, deliveryId);
    const first = await findCompatOriginal(tx, workspaceId, deliveryId, new Date(call.receivedAt.getTime() - COMPAT_DUPLICATE_WINDOW_MS));
    if (first) {
      const job = await findOutboxJobByDedupKey(tx, workspaceId, `event:${first.id}`);
      await insertWebhookEvent(tx, workspaceId, event(first.id));
      return { webhookEventId: first.id, outboxJobId: job?.id ?? '', duplicateOf: first.id };
    }
  }
  const dedupKey = call.dedup?.kind === 'key' && deliveryId ? `compat:${deliveryId}` : `event:${eventId}`;
  const jobId = await storeSignedDelivery(tx, workspaceId, event(null), {
    id: newId('job', call.receivedAt.getTime()),
    jobType: PROCESS_WEBHOOK_EVENT,
    dedupKey,
    payload: { webhookEventId: eventId },
    orderingKey: call.orderingKey,
    now: call.receivedAt,
  });
  if (jobId) return { webhookEventId: eventId, outboxJobId: jobId, duplicateOf: null };
  // The caller's key was used before: this call is recorded as a repeat of the first.
  const first = await findOutboxJobByDedupKey(tx, workspaceId, dedupKey);
  if (!first) throw new Error('compat dedup key taken but its job is not visible');
  const firstEventId = typeof first.payload.webhookEventId === 'string' ? first.payload.webhookEventId : first.id;
  await insertWebhookEvent(tx, workspaceId, event(firstEventId));
  return { webhookEventId: firstEventId, outboxJobId: first.id, duplicateOf: firstEventId };
}
