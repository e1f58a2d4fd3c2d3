/**
 * How a received inbound-webhook request ended (spec: Inbound webhook run status). A request
 * whose signature verified is recorded `verified` at once, then moves to its outcome in the
 * transaction that does the work; a run left `verified` was interrupted (the store failed and
 * the sender was answered 503), and never holds an idempotency key.
 */
export const INBOUND_RUN_STATUSES = ['verified', 'dry_run', 'queued', 'failed', 'skipped_duplicate'] as const;
export type InboundRunStatus = (typeof INBOUND_RUN_STATUSES)[number];

/** Only an outcome that did its work holds the Idempotency-Key: a failed run leaves it free for a retry. */
export const runReservesKey = (s: InboundRunStatus): boolean => s === 'dry_run' || s === 'queued';

/** Where a configuration was created: Settings-made ones are locked to dry-run until a platform admin promotes them. */
export const INBOUND_WEBHOOK_ORIGINS = ['settings', 'admin'] as const;
export type InboundWebhookOrigin = (typeof INBOUND_WEBHOOK_ORIGINS)[number];

/** An error recorded on a run and answered in `issues`: a mapping issue, or one of the send path's or the route's. Never carries a payload value. */
export interface InboundRunIssue {
  code: string;
  target?: string;
  message: string;
}
