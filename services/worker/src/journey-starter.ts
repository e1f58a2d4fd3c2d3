import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { SIGNAL_JOURNEY_REPLY, START_JOURNEY_RUN, type Clock } from '@mos/core';
import { claimJourneyJobs, completeJob, deferJob, markJourneyRunStarted, type ClaimedJourneyJob, type Db } from '@mos/db';
import type { Logger } from '@mos/config';
import { JOURNEY_REPLY_SIGNAL, JOURNEY_RUN_WORKFLOW_TYPE, SA_WORKSPACE_ID, type JourneyReplySignal, type JourneyRunInput } from '@mos/workflows/contract';

export interface JourneyStarter {
  stop(): Promise<void>;
  /** Claims and handles what is due now; returns how many jobs it handled. */
  tick(): Promise<number>;
}

const START_DEADLINE_MS = 5_000;
const BATCH = 25;

function str(payload: Record<string, unknown>, key: string): string | null {
  const v = payload[key];
  return typeof v === 'string' && v.length > 0 && v.length <= 300 ? v : null;
}

/**
 * The journey side of the outbox: the pipeline writes `start_journey_run` and
 * `signal_journey_reply` jobs in the webhook's transaction; this loop turns them into Temporal
 * calls. A start under the run's workflow id is REJECT_DUPLICATE (already started counts as
 * done), a reply to a run that has ended is dropped, and anything else (Temporal down) is
 * deferred with backoff: a job is never lost, and never applied twice in effect.
 */
export function startJourneyStarter(opts: {
  db: Db;
  log: Logger;
  clock: Clock;
  temporal: () => Promise<Client>;
  taskQueue: string;
  pollIntervalMs?: number;
  /** The worker's counters (metrics.ts), told once the claim's transaction committed. */
  observe?: (kind: 'start' | 'signal', outcome: 'done' | 'deferred') => void;
}): JourneyStarter {
  const log = opts.log.child({ component: 'journey-starter' });
  const pollMs = opts.pollIntervalMs ?? 250;
  let stopped = false;

  async function handle(client: Client, job: ClaimedJourneyJob): Promise<void> {
    const workflowId = str(job.payload, 'workflowId');
    const journeyRunId = str(job.payload, 'journeyRunId');
    if (!workflowId || !journeyRunId) throw new Error('journey job payload lacks its ids');
    if (job.jobType === START_JOURNEY_RUN) {
      const input: JourneyRunInput = { workspaceId: job.workspaceId, journeyRunId };
      try {
        await client.withDeadline(Date.now() + START_DEADLINE_MS, () =>
          client.workflow.start(JOURNEY_RUN_WORKFLOW_TYPE, {
            taskQueue: opts.taskQueue,
            workflowId,
            args: [input],
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            typedSearchAttributes: [{ key: SA_WORKSPACE_ID, value: job.workspaceId }],
          }),
        );
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
      return;
    }
    const messageId = str(job.payload, 'messageId');
    if (!messageId) throw new Error('reply job payload lacks the message id');
    const signal: JourneyReplySignal = { messageId };
    try {
      await client.withDeadline(Date.now() + START_DEADLINE_MS, () => client.workflow.getHandle(workflowId).signal(JOURNEY_REPLY_SIGNAL, signal));
    } catch (err) {
      // The run ended (or never started: a reply before the run began has nothing to answer).
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }

  async function tick(): Promise<number> {
    const client = await opts.temporal();
    const now = opts.clock.now();
    const handled: ['start' | 'signal', 'done' | 'deferred'][] = [];
    const count = await opts.db.transaction(async (tx) => {
      const jobs = await claimJourneyJobs(tx, [START_JOURNEY_RUN, SIGNAL_JOURNEY_REPLY], BATCH, now);
      let failed = false;
      for (const job of jobs) {
        try {
          // After one failure (Temporal away) the rest wait for the next attempt: locks stay short.
          if (failed) throw new Error('an earlier job of this batch failed');
          await handle(client, job);
          await completeJob(tx, job.workspaceId, job.id, { status: 'completed', now });
          const runId = str(job.payload, 'journeyRunId');
          if (job.jobType === START_JOURNEY_RUN && runId) await markJourneyRunStarted(tx, job.workspaceId, runId, now);
          handled.push([job.jobType === START_JOURNEY_RUN ? 'start' : 'signal', 'done']);
        } catch (err) {
          failed = true;
          const delayMs = Math.min(60_000, 500 * 2 ** Math.min(job.attempts, 7));
          await deferJob(tx, job.workspaceId, job.id, { error: (err as Error).message ?? String(err), availableAt: new Date(now.getTime() + delayMs), now });
          log.warn({ jobId: job.id, jobType: job.jobType, err: (err as Error).message, retryInMs: delayMs }, 'journey job deferred');
          handled.push([job.jobType === START_JOURNEY_RUN ? 'start' : 'signal', 'deferred']);
        }
      }
      return jobs.length;
    });
    for (const [kind, outcome] of handled) opts.observe?.(kind, outcome);
    return count;
  }

  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      let handled = 0;
      try {
        handled = await tick();
        failures = 0;
      } catch (err) {
        failures++;
        log.warn({ err: (err as Error).message }, 'journey starter tick failed');
      }
      // A full batch: there may be more due now.
      if (handled < BATCH) await new Promise((r) => setTimeout(r, failures ? Math.min(30_000, pollMs * 2 ** failures) : pollMs));
    }
  })();

  return {
    tick,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
