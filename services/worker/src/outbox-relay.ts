import pg from 'pg';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { newId, OUTBOX_CHANNEL, PROCESS_WEBHOOK_EVENT, type Clock } from '@mos/core';
import { claimPendingJobs, deferJob, markJobDispatched, type ClaimedJob, type Db, type Tx } from '@mos/db';
import type { Logger } from '@mos/config';
import {
  WEBHOOK_WORKFLOW_TYPE,
  SA_TOPIC,
  SA_WEBHOOK_EVENT_ID,
  SA_WORKSPACE_ID,
  webhookWorkflowId,
  type ProcessWebhookEventInput,
} from '@mos/workflows/contract';

export { OUTBOX_CHANNEL };

export interface OutboxRelayOptions {
  db: Db;
  /** For the dedicated LISTEN connection (a pooled client cannot hold a LISTEN). */
  databaseUrl: string;
  temporal: () => Promise<Client>;
  taskQueue: string;
  log: Logger;
  clock: Clock;
  /** Fallback poll when no notification arrives (missed NOTIFY, LISTEN reconnecting). */
  pollIntervalMs?: number;
  batchSize?: number;
}

export interface OutboxRelay {
  start(): void;
  stop(): Promise<void>;
  /** Claims and dispatches one batch now; returns how many jobs were claimed. */
  tick(): Promise<number>;
  readonly stats: { dispatched: number; deferred: number; lastDispatchAt: Date | null; listening: boolean };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const START_DEADLINE_MS = 5_000;
const backoffMs = (attempt: number, max: number) => Math.min(max, 250 * 2 ** Math.min(attempt, 16));

export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const pollIntervalMs = opts.pollIntervalMs ?? 1_000;
  const batchSize = opts.batchSize ?? 50;
  const log = opts.log.child({ component: 'outbox-relay' });
  const stats = { dispatched: 0, deferred: 0, lastDispatchAt: null as Date | null, listening: false };
  let stopped = true;
  let wakeUp: (() => void) | null = null;
  // A notification that arrives mid-tick must not be lost until the next poll.
  let woken = false;
  let loopDone: Promise<void> = Promise.resolve();
  let listener: pg.Client | null = null;
  let listenAttempt = 0;

  const wake = () => {
    if (wakeUp) wakeUp();
    else woken = true;
    wakeUp = null;
  };

  const waitForWake = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) {
        woken = false;
        return resolve();
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });

  /** Starts the job's workflow; returns its id, or null when the job was deferred. */
  async function startOne(tx: Tx, client: Client, job: ClaimedJob, now: Date): Promise<string | null> {
    const eventId = job.webhookEventId ?? '';
    // A payload without an event id still gets a run, which fails it visibly (EventNotFound).
    const workflowId = webhookWorkflowId(job.webhookEventId ?? job.jobId);
    const input: ProcessWebhookEventInput = {
      workspaceId: job.workspaceId,
      webhookEventId: eventId,
      jobId: job.jobId,
      deliveryId: newId('delivery', now.getTime()),
    };
    try {
      // A deadline bounds how long this cycle holds its row locks when Temporal has just gone
      // away (the client's own retry policy would otherwise keep trying for ~20 s).
      await client.withDeadline(Date.now() + START_DEADLINE_MS, () =>
        client.workflow.start(WEBHOOK_WORKFLOW_TYPE, {
          taskQueue: opts.taskQueue,
          workflowId,
          args: [input],
          // Temporal's default would start a second run once the first closed; a job runs once.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: [
            { key: SA_WORKSPACE_ID, value: job.workspaceId },
            { key: SA_TOPIC, value: job.topic ?? 'unknown' },
            { key: SA_WEBHOOK_EVENT_ID, value: eventId },
          ],
          memo: { source: job.source ?? 'unknown', deliveryId: input.deliveryId, providerDeliveryId: job.providerDeliveryId, jobId: job.jobId },
        }),
      );
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
        const delay = backoffMs(job.attempts, 60_000);
        const failedAt = opts.clock.now();
        await deferJob(tx, job.workspaceId, job.jobId, {
          error: String((err as Error).message ?? err),
          availableAt: new Date(failedAt.getTime() + delay),
          now: failedAt,
        });
        stats.deferred++;
        log.warn({ jobId: job.jobId, workspaceId: job.workspaceId, err: (err as Error).message, retryInMs: delay }, 'workflow start failed; job stays pending');
        return null;
      }
      // A second dispatch of the same job (another relay, or a crash before our commit): the
      // run exists, so the job is dispatched.
    }
    return workflowId;
  }

  async function tick(): Promise<number> {
    // Connect before claiming, so a Temporal outage leaves rows untouched (and unlocked).
    const client = await opts.temporal();
    const { claimed, failed } = await opts.db.transaction(async (tx) => {
      const now = opts.clock.now();
      const jobs = await claimPendingJobs(tx, { jobType: PROCESS_WEBHOOK_EVENT, limit: batchSize, now });
      const started = await Promise.all(jobs.map((job) => startOne(tx, client, job, now)));
      const dispatched = jobs.flatMap((job, i) => (started[i] ? [{ job, workflowId: started[i] }] : []));
      // The locks taken by the claim are held until this commit, so a workflow that finishes
      // first waits to complete its job until the job is marked dispatched.
      for (const { job, workflowId } of dispatched) await markJobDispatched(tx, job.workspaceId, job.jobId, { workflowId, now });
      if (dispatched.length > 0) {
        stats.dispatched += dispatched.length;
        stats.lastDispatchAt = now;
      }
      return { claimed: jobs.length, failed: jobs.length - dispatched.length };
    });
    if (failed > 0 && failed === claimed) throw new Error(`all ${failed} workflow starts failed`);
    return claimed;
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      let claimed = 0;
      try {
        claimed = await tick();
        failures = 0;
      } catch (err) {
        failures++;
        const delay = backoffMs(failures, 30_000);
        log.warn({ err: (err as Error).message, retryInMs: delay }, 'outbox relay tick failed');
        // Notifications do not shorten this wait: under load they would defeat the backoff.
        for (let waited = 0; waited < delay && !stopped; waited += 100) await sleep(100);
        continue;
      }
      // A full batch means more is probably waiting: go again without sleeping.
      if (claimed < batchSize && !stopped) await waitForWake(pollIntervalMs);
    }
  }

  async function listen(): Promise<void> {
    if (stopped) return;
    const client = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'mos-outbox-listen' });
    const retry = (err?: unknown) => {
      if (listener !== client) return;
      listener = null;
      stats.listening = false;
      client.end().catch(() => {});
      if (stopped) return;
      const delay = backoffMs(++listenAttempt, 30_000);
      log.warn({ err: (err as Error | undefined)?.message, retryInMs: delay }, 'outbox LISTEN connection lost; polling meanwhile');
      setTimeout(() => void listen(), delay).unref();
    };
    listener = client;
    client.on('notification', wake);
    client.on('error', retry);
    client.on('end', () => retry(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      stats.listening = true;
      listenAttempt = 0;
      // Jobs notified while we were not listening are picked up now rather than at the next poll.
      wake();
    } catch (err) {
      retry(err);
    }
  }

  return {
    stats,
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      void listen();
      loopDone = loop();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      wake();
      await loopDone;
      const client = listener;
      listener = null;
      stats.listening = false;
      await client?.end().catch(() => {});
    },
  };
}
