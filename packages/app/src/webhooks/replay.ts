import { AppError, COMPAT_SOURCE, newId, parseProviderEnvelope, PROCESS_WEBHOOK_EVENT, replayDedupKey, webhookOrderingKey } from '@mos/core';
import {
  enqueueOutboxJob,
  getWebhookDelivery,
  getWebhookEvent,
  insertPendingDelivery,
  insertWebhookEvent,
  writeAuditLog,
  type Tx,
  type WebhookEventRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

/**
 * Replays of a stored webhook (tRPC `webhooks.replay`) and of a webhook delivery (tRPC
 * `webhookDeliveries.replay`). The original event is never written: a replay inserts a NEW
 * webhook_events row cloned from the original's raw bytes (replay_of_id, replayed_by), a NEW
 * outbox job keyed `replay:<new event id>` (so replaying an already processed delivery is
 * never deduplicated away), the audit entry and the relay NOTIFY, all in one transaction.
 */

export interface ReplayInput {
  id: string;
  /** The operator request's id, stored on the new event. */
  requestId: string;
}

export interface WebhookReplayResult {
  accepted: true;
  replayedFromId: string;
  webhookEvent: { id: string; source: string; topic: string; receivedAt: string };
  outboxJob: { id: string; jobType: string; status: 'pending' };
}

export interface WebhookDeliveryReplayResult {
  accepted: true;
  delivery: { id: string; status: 'pending' };
  job: { id: string; status: 'pending' };
}

async function cloneForReplay(deps: AppDeps, tx: Tx, scope: Scope, original: WebhookEventRow, meta: { requestId: string; responseStatus: number }) {
  // Unverified bytes must not enter processing through an operator's click.
  if (!original.signatureValid) {
    throw new AppError('conflict', { message: 'only deliveries with a valid signature can be replayed' });
  }
  if (!original.rawBody) throw new AppError('conflict', { message: 'the raw body of this delivery has been erased' });
  const now = deps.clock.now();
  const eventId = newId('webhookEvent', now.getTime());
  const jobId = newId('job', now.getTime());
  // Re-parsed rather than copied, so the replay's topic and summary follow today's parser. A
  // compat call keeps its topic and summary: they hold what the ingress resolved from stored
  // configuration (workspace mapping, journey, contact, the chain's first event), which the
  // body alone cannot say.
  const compat = original.source === COMPAT_SOURCE;
  const parsed = compat ? null : parseProviderEnvelope(original.rawBody);
  const summary = parsed
    ? parsed.summary
    : { topic: original.topic, accountId: null, phoneNumberId: null, displayPhoneNumber: null, ...(original.summary as Record<string, unknown>) };
  await insertWebhookEvent(tx, scope.workspaceId, {
    id: eventId,
    source: original.source,
    topic: summary.topic,
    requestId: meta.requestId,
    deliveryId: original.deliveryId,
    duplicateOfId: null,
    signatureValid: true,
    signatureError: null,
    headers: original.headers,
    query: original.query,
    bodyHash: original.bodyHash,
    rawBody: original.rawBody,
    bodySize: original.bodySize,
    accountId: summary.accountId,
    phoneNumberId: summary.phoneNumberId,
    displayPhoneNumber: summary.displayPhoneNumber,
    summary: { ...summary },
    normalizationStatus: 'pending',
    responseStatus: meta.responseStatus,
    ingestMicros: null,
    replayOfId: original.id,
    replayedBy: scope.actorId,
    receivedAt: now,
  });
  const queued = await enqueueOutboxJob(tx, scope.workspaceId, {
    id: jobId,
    jobType: PROCESS_WEBHOOK_EVENT,
    dedupKey: replayDedupKey(eventId),
    payload: { webhookEventId: eventId },
    // As the ingress computes it, from today's parse: a replay queues behind (and ahead of) the
    // same conversation's other webhooks in receipt order, its receipt being the replay.
    orderingKey: parsed?.ok ? webhookOrderingKey(parsed.envelope) : null,
    now,
  });
  if (!queued) throw new Error('replay dedup key collided');
  return { event: { id: eventId, source: original.source, topic: summary.topic, receivedAt: now.toISOString() }, jobId };
}

/** POST /internal/webhooks/{id}/replay, tRPC webhooks.replay. */
export async function replayWebhook(deps: AppDeps, scope: Scope, input: ReplayInput): Promise<WebhookReplayResult> {
  const result = await deps.db.transaction(async (tx) => {
    const original = await getWebhookEvent(tx, scope.workspaceId, input.id);
    if (!original) throw new AppError('webhook_not_found');
    const clone = await cloneForReplay(deps, tx, scope, original, { requestId: input.requestId, responseStatus: 200 });
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'webhook.replay',
      actorId: scope.actorId,
      targetId: original.id,
      details: { webhookEventId: clone.event.id, outboxJobId: clone.jobId },
    });
    return clone;
  });
  deps.log.info({ replayedFromId: input.id, webhookEventId: result.event.id, jobId: result.jobId, actorId: scope.actorId }, 'webhook replayed');
  return {
    accepted: true,
    replayedFromId: input.id,
    webhookEvent: result.event,
    outboxJob: { id: result.jobId, jobType: PROCESS_WEBHOOK_EVENT, status: 'pending' },
  };
}

/**
 * POST /internal/webhook-events/{del_id}/replay, tRPC webhookDeliveries.replay: replays the event behind a normalized
 * delivery. The 202 returns a NEW pending delivery row created for the new job; the worker
 * upserts its outcome on (workspace, job), so that row becomes processed/failed in place.
 */
export async function replayWebhookDelivery(deps: AppDeps, scope: Scope, input: ReplayInput): Promise<WebhookDeliveryReplayResult> {
  const result = await deps.db.transaction(async (tx) => {
    const delivery = await getWebhookDelivery(tx, scope.workspaceId, input.id);
    if (!delivery) throw new AppError('webhook_delivery_not_found');
    const original = await getWebhookEvent(tx, scope.workspaceId, delivery.webhookEventId);
    if (!original) throw new AppError('webhook_delivery_not_found', { message: 'the webhook event of this delivery no longer exists' });
    const clone = await cloneForReplay(deps, tx, scope, original, { requestId: input.requestId, responseStatus: 202 });
    const pending = await insertPendingDelivery(tx, scope.workspaceId, {
      id: newId('delivery'),
      webhookEventId: clone.event.id,
      jobId: clone.jobId,
      topic: clone.event.topic,
      now: deps.clock.now(),
    });
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'webhook_delivery.replay',
      actorId: scope.actorId,
      targetId: delivery.id,
      details: { replayedFromWebhookEventId: original.id, webhookEventId: clone.event.id, outboxJobId: clone.jobId, deliveryId: pending.id },
    });
    return { deliveryId: pending.id, jobId: clone.jobId };
  });
  deps.log.info({ replayedFromDeliveryId: input.id, deliveryId: result.deliveryId, jobId: result.jobId, actorId: scope.actorId }, 'webhook delivery replayed');
  return { accepted: true, delivery: { id: result.deliveryId, status: 'pending' }, job: { id: result.jobId, status: 'pending' } };
}
