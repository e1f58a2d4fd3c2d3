import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from './activities';
import { NON_RETRYABLE_TYPES, WebhookFailureType, type ProcessWebhookEventInput, type ProcessWebhookEventResult } from './contract';

// The job: transient failures (database restarts, a busy effect) retry with backoff for about
// half an hour before the run is recorded as failed. Heartbeats detect a dead worker quickly.
const { processEvent } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 40,
    nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
  },
});

// Recording the failure must eventually happen, so it retries without an attempt limit.
const { recordFailure } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One run per stored webhook event (id `webhook-<evt id>`). Usually a single activity; a run
 * that can never succeed records the delivery and job as failed, then fails itself with the
 * same failure type so it shows as Failed in the Temporal UI.
 */
export async function processWebhookEvent(input: ProcessWebhookEventInput): Promise<ProcessWebhookEventResult> {
  try {
    return await processEvent(input);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause instanceof ApplicationFailure ? err.cause : undefined;
    const type = !cause?.nonRetryable
      ? WebhookFailureType.RetriesExhausted
      : cause.type && NON_RETRYABLE_TYPES.includes(cause.type)
        ? cause.type
        : WebhookFailureType.EffectRejected;
    const message = cause && type === WebhookFailureType.EffectRejected ? `${cause.type}: ${cause.message}` : (cause?.message ?? err.message);
    log.warn('webhook event failed permanently', { type, webhookEventId: input.webhookEventId });
    await recordFailure({ ...input, type, message });
    throw ApplicationFailure.create({ type, message, nonRetryable: true });
  }
}
