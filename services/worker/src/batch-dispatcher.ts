import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { newId, type Clock } from '@mos/core';
import { handOffWebhookJobs, type ClaimedBatch, type Db } from '@mos/db';
import type { Logger } from '@mos/config';
import {
  SA_TOPIC,
  SA_TOPICS,
  SA_WEBHOOK_EVENT_ID,
  SA_WEBHOOK_EVENT_IDS,
  SA_WORKSPACE_ID,
  SA_WORKSPACE_IDS,
  WEBHOOK_BATCH_WORKFLOW_TYPE,
  WEBHOOK_WORKFLOW_TYPE,
  webhookBatchWorkflowId,
  handedOffWorkflowId,
  type ProcessWebhookBatchInput,
  type ProcessWebhookEventInput,
} from '@mos/workflows/contract';

/** How the relay hands a claimed batch to whatever runs it. */
export interface BatchDispatcher {
  /** Resolves when dispatching can work (Temporal connected); throws otherwise. */
  ready(): Promise<void>;
  /** Starts the batch's run; a run that already exists under the batch's id counts as started. */
  dispatch(batch: ClaimedBatch): Promise<void>;
  /**
   * A batch whose jobs stayed dispatched too long: starts it if it never started, and when its
   * run has ended with jobs left (terminated by an operator), hands those to their own runs.
   */
  recover(batch: ClaimedBatch): Promise<void>;
}

const START_DEADLINE_MS = 5_000;
const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))];

/** The batch's run input: ids only; bodies stay in PostgreSQL and out of Temporal history. */
export function batchInput(batch: ClaimedBatch, now: Date): ProcessWebhookBatchInput {
  return {
    batchId: batch.batchId,
    jobs: batch.jobs.map((j) => ({
      workspaceId: j.workspaceId,
      webhookEventId: j.webhookEventId,
      jobId: j.jobId,
      // Allocated here so a handed-off run and the batch agree on the delivery row's id.
      deliveryId: newId('delivery', now.getTime()),
    })),
  };
}

/**
 * Starts one `processWebhookBatch` run per batch, findable by every webhook it carries
 * (`WebhookEventIds`), its workspaces and topics. REJECT_DUPLICATE on the deterministic id
 * makes a second dispatch of the same batch a no-op.
 */
export function temporalBatchDispatcher(opts: {
  temporal: () => Promise<Client>;
  taskQueue: string;
  db: Db;
  clock: Clock;
  log: Logger;
  /**
   * Ask the server to hand the run's first workflow task back in the start response, to be run
   * by a worker on the same connection (the client must be built on the worker's
   * NativeConnection). Saves a task dispatch per batch; see docs/benchmarks.md.
   */
  eagerStart?: () => boolean;
}): BatchDispatcher {
  const log = opts.log.child({ component: 'batch-dispatcher' });

  async function start(client: Client, batch: ClaimedBatch): Promise<'started' | 'exists'> {
    const input = batchInput(batch, opts.clock.now());
    try {
      // A deadline bounds a start while Temporal has just gone away (the client's own retry
      // policy would otherwise keep trying for ~20 s).
      await client.withDeadline(Date.now() + START_DEADLINE_MS, () =>
        client.workflow.start(WEBHOOK_BATCH_WORKFLOW_TYPE, {
          taskQueue: opts.taskQueue,
          workflowId: webhookBatchWorkflowId(batch.batchId),
          args: [input],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: [
            { key: SA_WEBHOOK_EVENT_IDS, value: distinct(batch.jobs.map((j) => j.webhookEventId)) },
            { key: SA_WORKSPACE_IDS, value: distinct(batch.jobs.map((j) => j.workspaceId)) },
            { key: SA_TOPICS, value: distinct(batch.jobs.map((j) => j.topic ?? 'unknown')) },
          ],
          memo: { size: batch.jobs.length },
          requestEagerStart: opts.eagerStart?.() ?? false,
        }),
      );
      return 'started';
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
      throw err;
    }
  }

  /** The batch's run ended with these jobs unfinished: each goes to its own run, then is marked. */
  async function handOff(client: Client, batch: ClaimedBatch, reason: string): Promise<void> {
    const input = batchInput(batch, opts.clock.now());
    for (const [i, job] of batch.jobs.entries()) {
      const args: ProcessWebhookEventInput = input.jobs[i]!;
      try {
        await client.workflow.start(WEBHOOK_WORKFLOW_TYPE, {
          taskQueue: opts.taskQueue,
          workflowId: handedOffWorkflowId(job),
          args: [args],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: [
            { key: SA_WORKSPACE_ID, value: job.workspaceId },
            { key: SA_TOPIC, value: job.topic ?? 'unknown' },
            { key: SA_WEBHOOK_EVENT_ID, value: job.webhookEventId },
          ],
          memo: { batchId: batch.batchId, recoveredBecause: reason, jobId: job.jobId, deliveryId: args.deliveryId },
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
    await handOffWebhookJobs(
      opts.db,
      batch.jobs.map((j) => ({
        workspaceId: j.workspaceId,
        jobId: j.jobId,
        webhookEventId: j.webhookEventId,
        workflowId: handedOffWorkflowId(j),
        error: `BatchRunEnded: ${reason}`,
      })),
      opts.clock.now(),
    );
  }

  return {
    async ready() {
      await opts.temporal();
    },
    async dispatch(batch) {
      await start(await opts.temporal(), batch);
    },
    async recover(batch) {
      const client = await opts.temporal();
      if ((await start(client, batch)) === 'started') {
        log.warn({ batchId: batch.batchId, size: batch.jobs.length }, 'stale batch had no run; started it');
        return;
      }
      let status: string;
      try {
        status = (await client.workflow.getHandle(webhookBatchWorkflowId(batch.batchId)).describe()).status.name;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return; // removed by retention between the two calls: next sweep starts it
        throw err;
      }
      if (status === 'RUNNING') return;
      log.warn({ batchId: batch.batchId, status, left: batch.jobs.length }, 'batch run ended with jobs unfinished; handing them to their own runs');
      await handOff(client, batch, `batch run ${status.toLowerCase()}`);
    },
  };
}
