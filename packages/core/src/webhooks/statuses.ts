/**
 * Values shared by the ingress (which writes them) and the worker (which advances them).
 * normalization_status of a webhook event: pending (queued) -> processed | failed;
 * skipped (signature not valid, never queued); duplicate (repeat delivery id, not queued).
 */
export const NORMALIZATION_STATUSES = ['pending', 'processed', 'failed', 'skipped', 'duplicate'] as const;
export type NormalizationStatus = (typeof NORMALIZATION_STATUSES)[number];

/** The two provider ingress paths; the path segment is the stored source label. */
export const WEBHOOK_SOURCES = ['messaging', 'provider'] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

/** Outbox job type written by the ingress and by replays. */
export const PROCESS_WEBHOOK_EVENT = 'process_webhook_event';

/** The NOTIFY channel the worker's relay LISTENs on; the payload is the job id. */
export const OUTBOX_CHANNEL = 'mos_outbox';

/** Outbox dedup keys: a provider delivery id per source, else the event itself; replays their own. */
export function webhookDedupKey(input: { source: string; deliveryId: string | null; webhookEventId: string }): string {
  return input.deliveryId ? `delivery:${input.source}:${input.deliveryId}` : `event:${input.webhookEventId}`;
}

export function replayDedupKey(newWebhookEventId: string): string {
  return `replay:${newWebhookEventId}`;
}
