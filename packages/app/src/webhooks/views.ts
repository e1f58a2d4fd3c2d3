import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { redactBodyText, temporalUiRunUrl } from '@mos/core';
import type { OutboxJobRow, WebhookDeliveryRow, WebhookEventListing, WebhookEventRow, WebhookRejectionRow } from '@mos/db';

/**
 * Output shapes of the webhook operator surface: stored webhooks (`evt_`), their deliveries
 * (`del_`), rejections and outbox jobs (REST and tRPC answer with the same objects). Times are ISO 8601 UTC strings. No secret is ever stored on these rows: the
 * ingress drops cookie/authorization headers before storing.
 */

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/** A stored webhook in a list (spec: "Webhook delivery record", GET /internal/webhooks). */
export const webhookListItem = z.object({
  id: z.string(),
  source: z.string(),
  topic: z.string(),
  deliveryId: z.string().nullable(),
  signatureValid: z.boolean(),
  bodyHash: z.string(),
  receivedAt: z.string(),
  normalizationStatus: z.string(),
  duplicateOfId: z.string().nullable(),
  replayOfId: z.string().nullable(),
});
export type WebhookListItem = z.infer<typeof webhookListItem>;

export function toWebhookListItem(r: WebhookEventListing): WebhookListItem {
  return {
    id: r.id,
    source: r.source,
    topic: r.topic,
    deliveryId: r.deliveryId,
    signatureValid: r.signatureValid,
    bodyHash: r.bodyHash,
    receivedAt: iso(r.receivedAt),
    normalizationStatus: r.normalizationStatus,
    duplicateOfId: r.duplicateOfId,
    replayOfId: r.replayOfId,
  };
}

export const outboxJobView = z.object({
  id: z.string(),
  jobType: z.string(),
  /** pending, dispatched (claimed into a batch), retrying (handed to the event's own run), completed or failed. */
  status: z.string(),
  dedupKey: z.string(),
  payload: z.record(z.string(), z.unknown()),
  attempts: z.number(),
  lastError: z.string().nullable(),
  workflowId: z.string().nullable(),
  /** The batch that claimed the job (its run is `webhook-batch-<batchId>`); null until claimed. */
  batchId: z.string().nullable(),
  createdAt: z.string(),
  dispatchedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});

export function toOutboxJobView(j: OutboxJobRow): z.infer<typeof outboxJobView> {
  return {
    id: j.id,
    jobType: j.jobType,
    status: j.status,
    dedupKey: j.dedupKey,
    payload: j.payload,
    attempts: j.attempts,
    lastError: j.lastError,
    workflowId: j.workflowId,
    batchId: j.batchId,
    createdAt: iso(j.createdAt),
    dispatchedAt: isoOrNull(j.dispatchedAt),
    completedAt: isoOrNull(j.completedAt),
  };
}

export const webhookDetail = webhookListItem.extend({
  requestId: z.string(),
  signatureError: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  query: z.record(z.string(), z.unknown()),
  bodySize: z.number(),
  /** The exact stored bytes; null once erased by retention or GDPR. */
  rawBodyBase64: z.string().nullable(),
  /** The same bytes as text when they are valid UTF-8, else null. */
  rawBodyText: z.string().nullable(),
  rawBodyRedaction: z.string().nullable(),
  accountId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  displayPhoneNumber: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()),
  responseStatus: z.number(),
  ingestMicros: z.number().nullable(),
  createdAt: z.string(),
  /** The job processing this event (for a duplicate: the first delivery's job). */
  outboxJob: outboxJobView.nullable(),
  replay: z.object({
    replayOfId: z.string().nullable(),
    replayedBy: z.string().nullable(),
    replays: z.array(z.object({ id: z.string(), replayedBy: z.string().nullable(), receivedAt: z.string(), normalizationStatus: z.string() })),
  }),
  /**
   * The Temporal run that last applied or failed this event (a `webhook-batch-...` run, or the
   * event's own `webhook-<evt id>` run once handed off); nulls until one has. `temporalUiUrl`
   * opens that run (or the workflow's latest run while the run id is unknown); null when no
   * Temporal UI is configured (TEMPORAL_UI_URL).
   */
  processing: z.object({ workflowId: z.string().nullable(), runId: z.string().nullable(), temporalUiUrl: z.string().nullable() }),
});
export type WebhookDetail = z.infer<typeof webhookDetail>;

/** Set on a viewer's copy of a body (docs/security.md): the stored bytes are intact, this view is not. */
export const VIEWER_REDACTION = 'redacted_for_viewer';

/** Where `processing.temporalUiUrl` points: TEMPORAL_UI_URL (null: no link) and TEMPORAL_NAMESPACE. */
export interface TemporalUiConfig {
  baseUrl: string | null;
  namespace: string;
}

export function toWebhookDetail(
  r: WebhookEventRow,
  extra: {
    job: OutboxJobRow | undefined;
    replays: { id: string; replayedBy: string | null; receivedAt: Date; normalizationStatus: string }[];
    temporalUi: TemporalUiConfig;
  },
  options: { redactPersonalData?: boolean } = {},
): WebhookDetail {
  const raw = r.rawBody;
  const body = options.redactPersonalData
    ? { rawBodyBase64: null, rawBodyText: raw ? redactBodyText(raw) : null, rawBodyRedaction: r.rawBodyRedaction ?? (raw ? VIEWER_REDACTION : null) }
    : {
        rawBodyBase64: raw ? raw.toString('base64') : null,
        rawBodyText: raw && isUtf8(raw) ? raw.toString('utf8') : null,
        rawBodyRedaction: r.rawBodyRedaction ?? null,
      };
  return {
    ...toWebhookListItem(r),
    requestId: r.requestId,
    signatureError: r.signatureError,
    headers: r.headers,
    query: r.query,
    bodySize: r.bodySize,
    ...body,
    accountId: r.accountId,
    phoneNumberId: r.phoneNumberId,
    displayPhoneNumber: r.displayPhoneNumber,
    summary: r.summary,
    responseStatus: r.responseStatus,
    ingestMicros: r.ingestMicros,
    createdAt: iso(r.createdAt),
    outboxJob: extra.job ? toOutboxJobView(extra.job) : null,
    replay: {
      replayOfId: r.replayOfId,
      replayedBy: r.replayedBy,
      replays: extra.replays.map((x) => ({ ...x, receivedAt: iso(x.receivedAt) })),
    },
    processing: {
      workflowId: r.workflowId,
      runId: r.runId,
      temporalUiUrl: temporalUiRunUrl({ ...extra.temporalUi, workflowId: r.workflowId, runId: r.runId }),
    },
  };
}

/** Spec: "Normalized webhook delivery" (GET /internal/webhook-events). */
export const webhookDeliveryView = z.object({
  id: z.string(),
  webhookEventId: z.string(),
  jobId: z.string(),
  topic: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  processedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export function toWebhookDeliveryView(d: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: d.id,
    webhookEventId: d.webhookEventId,
    jobId: d.jobId,
    topic: d.topic,
    status: d.status,
    error: d.error,
    processedAt: isoOrNull(d.processedAt),
    createdAt: iso(d.createdAt),
  };
}

/** Spec: "Webhook rejection" (GET /internal/webhook-rejections). */
export const webhookRejectionView = z.object({
  id: z.string(),
  webhookEventId: z.string(),
  source: z.string(),
  topic: z.string(),
  reason: z.string(),
  signatureValid: z.boolean(),
  receivedAt: z.string(),
});
export type WebhookRejectionView = z.infer<typeof webhookRejectionView>;

export function toWebhookRejectionView(r: WebhookRejectionRow): WebhookRejectionView {
  return {
    id: r.id,
    webhookEventId: r.webhookEventId,
    source: r.source,
    topic: r.topic,
    reason: r.reason,
    signatureValid: r.signatureValid,
    receivedAt: iso(r.receivedAt),
  };
}
