import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, log, ParentClosePolicy, proxyActivities, proxyLocalActivities, startChild } from '@temporalio/workflow';
import type { HandOffInput, WebhookActivities } from './activities';
import {
  NON_RETRYABLE_TYPES,
  SA_TOPIC,
  SA_WEBHOOK_EVENT_ID,
  SA_WORKSPACE_ID,
  WebhookFailureType,
  handedOffWorkflowId,
  type ProcessWebhookBatchInput,
  type ProcessWebhookBatchResult,
  type ProcessWebhookEventInput,
  type ProcessWebhookEventResult,
  type WebhookBatchJob,
} from './contract';

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

// The batch apply runs as a local activity: no activity task round trip through the server,
// and its result is a marker in the batch run's history. Each call is bounded (its own time
// budget of ~2 s plus statement timeouts); a call that keeps failing hands its webhooks to
// their own runs rather than holding the batch.
const { applyWebhookBatch } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 4 },
});

// Handing off must eventually happen (it frees the lane), so it retries without a limit.
const { handOffWebhooks } = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One run per claimed batch (id `webhook-batch-<first job id>`): applies its webhooks in
 * order through bounded local-activity calls, each webhook exactly once, and hands every
 * webhook that failed to its own `webhook-<evt id>` run, which retries it durably and fails
 * visibly when it never can apply. Those runs outlive the batch (ABANDON).
 */
export async function processWebhookBatch(input: ProcessWebhookBatchInput): Promise<ProcessWebhookBatchResult> {
  const byJob = new Map(input.jobs.map((job) => [job.jobId, job]));
  const failed: HandOffInput['jobs'] = [];
  let remaining: WebhookBatchJob[] = input.jobs;
  let applied = 0;
  let alreadyApplied = 0;
  let calls = 0;
  while (remaining.length > 0) {
    calls++;
    let outcomes;
    try {
      ({ outcomes } = await applyWebhookBatch({ batchId: input.batchId, jobs: remaining }));
    } catch (err) {
      // The call itself kept failing (the database away, timeouts): whatever is not applied
      // goes to its own run, where retries are durable and visible per webhook.
      const cause = err instanceof ActivityFailure ? (err.cause ?? err) : err;
      const message = cause instanceof Error ? cause.message : String(cause);
      log.warn('webhook batch call failed; handing its webhooks to their own runs', { batchId: input.batchId, webhooks: remaining.length });
      for (const job of remaining) failed.push({ ...job, type: WebhookFailureType.BatchCallFailed, message: message.slice(0, 300) });
      break;
    }
    const next: WebhookBatchJob[] = [];
    for (const o of outcomes) {
      const job = byJob.get(o.jobId);
      if (!job) continue;
      if (o.outcome === 'failed') failed.push({ ...job, type: o.type, message: o.message, ...(o.topic ? { topic: o.topic } : {}) });
      else if (o.outcome === 'applied') applied++;
      else if (o.outcome === 'already_applied') alreadyApplied++;
      else next.push(job);
    }
    remaining = next;
  }
  if (failed.length > 0) {
    // Start first, then mark: a batch ended between the two (terminated by an operator) leaves
    // jobs dispatched, which the relay's stale-batch sweep hands off again; never a job marked
    // handed off with no run to finish it.
    // All children at once: one workflow task issues every start (sequential awaits would
    // cost a task per child when a whole batch fails, e.g. with the database away).
    await Promise.all(
      failed.map(async (job) => {
        const { type, message: _message, topic, ...ids } = job;
        try {
          await startChild(processWebhookEvent, {
            workflowId: handedOffWorkflowId(job),
            args: [ids],
            parentClosePolicy: ParentClosePolicy.ABANDON,
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            typedSearchAttributes: [
              { key: SA_WORKSPACE_ID, value: job.workspaceId },
              { key: SA_WEBHOOK_EVENT_ID, value: job.webhookEventId },
              ...(topic ? [{ key: SA_TOPIC, value: topic }] : []),
            ],
            memo: { batchId: input.batchId, failedInBatch: type, jobId: job.jobId, deliveryId: job.deliveryId },
          });
        } catch (err) {
          // A run of that id exists: started by the relay's sweep, which took this batch for ended.
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
      }),
    );
    await handOffWebhooks({ jobs: failed });
  }
  return { batchId: input.batchId, applied, alreadyApplied, handedOff: failed.map((j) => j.webhookEventId), calls };
}
