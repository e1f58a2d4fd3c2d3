import pg from 'pg';
import { OUTBOX_CHANNEL, PROCESS_WEBHOOK_EVENT, type Clock } from '@mos/core';
import { claimWebhookBatches, findStaleBatches, LANE_FREED, type ClaimedBatch, type Db } from '@mos/db';
import type { Logger } from '@mos/config';
import { MAX_WEBHOOK_BATCH, webhookBatchWorkflowId } from '@mos/workflows/contract';
import type { BatchDispatcher } from './batch-dispatcher';

export { OUTBOX_CHANNEL };

export interface OutboxRelayOptions {
  db: Db;
  /** For the dedicated LISTEN connection (a pooled client cannot hold a LISTEN). */
  databaseUrl: string;
  /** Starts a claimed batch's run (Temporal in production; see batch-dispatcher.ts). */
  dispatcher: BatchDispatcher;
  log: Logger;
  clock: Clock;
  /** Fallback poll when no notification arrives (missed NOTIFY, LISTEN reconnecting). */
  pollIntervalMs?: number;
  /** The most webhooks per batch (at most MAX_WEBHOOK_BATCH). */
  batchSize?: number;
  /** Ordering lanes = the most batches in flight at once. */
  lanes?: number;
  /** A batch with jobs still dispatched after this long is checked (started again, or handed off). */
  staleAfterMs?: number;
  /** The worker's counters (metrics.ts). */
  observe?: RelayObserver;
}

/** What the relay reports as it claims and starts batches (the worker's /metrics). */
export interface RelayObserver {
  /** A claimed batch of `size` webhooks, whose run started (or failed to start). */
  batch(size: number, started: boolean): void;
  /** A stale batch checked by the sweep. */
  recovered(): void;
}

/** Batch sizes seen, in buckets: read by /internal/runtime through the heartbeat. */
export type BatchSizeHistogram = Record<'1' | '2-5' | '6-10' | '11-25' | '26-50', number>;

export interface RelayStats {
  /** Jobs dispatched in batches. */
  dispatched: number;
  batches: number;
  batchSizes: BatchSizeHistogram;
  /** Batch starts that failed (the stale sweep starts them again). */
  startFailures: number;
  /** Stale batches checked by the sweep. */
  recovered: number;
  lastDispatchAt: Date | null;
  listening: boolean;
}

export interface OutboxRelay {
  start(): void;
  stop(): Promise<void>;
  /** Claims and dispatches what is due now; returns how many jobs were claimed. */
  tick(): Promise<number>;
  /** Checks batches that have stayed dispatched too long; returns how many were checked. */
  sweep(): Promise<number>;
  readonly stats: RelayStats;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const backoffMs = (attempt: number, max: number) => Math.min(max, 250 * 2 ** Math.min(attempt, 16));

function bucketOf(size: number): keyof BatchSizeHistogram {
  if (size <= 1) return '1';
  if (size <= 5) return '2-5';
  if (size <= 10) return '6-10';
  if (size <= 25) return '11-25';
  return '26-50';
}

/**
 * The outbox relay: claims pending webhook jobs into batches (one per free ordering lane, up
 * to `batchSize` each) and starts one run per batch. There is no fixed wait: an idle system
 * dispatches a single webhook as soon as its NOTIFY arrives; under load every lane is busy,
 * the backlog grows, and the next claim takes up to `batchSize` of it at once.
 */
export function createOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const pollIntervalMs = opts.pollIntervalMs ?? 1_000;
  const batchSize = Math.max(1, Math.min(opts.batchSize ?? MAX_WEBHOOK_BATCH, MAX_WEBHOOK_BATCH));
  const lanes = Math.max(1, opts.lanes ?? 4);
  const staleAfterMs = opts.staleAfterMs ?? 15_000;
  const log = opts.log.child({ component: 'outbox-relay' });
  const stats: RelayStats = {
    dispatched: 0,
    batches: 0,
    batchSizes: { '1': 0, '2-5': 0, '6-10': 0, '11-25': 0, '26-50': 0 },
    startFailures: 0,
    recovered: 0,
    lastDispatchAt: null,
    listening: false,
  };
  let stopped = true;
  let wakeUp: (() => void) | null = null;
  // A notification that arrives mid-tick must not be lost until the next poll.
  let woken = false;
  let loopDone: Promise<void> = Promise.resolve();
  let listener: pg.Client | null = null;
  let listenAttempt = 0;
  let lastSweep = 0;
  // Every lane held by a batch in flight: a new job's NOTIFY cannot be claimed now, so only a
  // lane being freed (or the poll) is worth a claim. Saves a claim transaction per arriving
  // webhook under load.
  let allLanesBusy = false;

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

  async function dispatch(batch: ClaimedBatch): Promise<void> {
    try {
      await opts.dispatcher.dispatch(batch);
    } catch (err) {
      // The rows stay dispatched under this batch id (their lane stays held, so order holds);
      // the sweep starts the same batch again once it is stale.
      stats.startFailures++;
      log.warn({ batchId: batch.batchId, size: batch.jobs.length, err: (err as Error).message }, 'batch start failed; the sweep retries it');
      throw err;
    }
  }

  async function tick(): Promise<number> {
    // Ready before claiming: an outage leaves rows pending rather than dispatched to nowhere.
    await opts.dispatcher.ready();
    const now = opts.clock.now();
    const { batches, lanesBusy } = await opts.db.transaction((tx) =>
      claimWebhookBatches(tx, { jobType: PROCESS_WEBHOOK_EVENT, lanes, maxBatch: batchSize, now, workflowIdOf: webhookBatchWorkflowId }),
    );
    allLanesBusy = lanesBusy >= lanes;
    if (batches.length === 0) return 0;
    const results = await Promise.allSettled(batches.map(dispatch));
    let claimed = 0;
    for (const [i, batch] of batches.entries()) {
      claimed += batch.jobs.length;
      stats.batchSizes[bucketOf(batch.jobs.length)]++;
      opts.observe?.batch(batch.jobs.length, results[i]!.status === 'fulfilled');
    }
    stats.batches += batches.length;
    stats.dispatched += claimed;
    stats.lastDispatchAt = now;
    if (results.every((r) => r.status === 'rejected')) throw new Error(`all ${batches.length} batch starts failed`);
    return claimed;
  }

  async function sweep(): Promise<number> {
    const olderThan = new Date(opts.clock.now().getTime() - staleAfterMs);
    const stale = await findStaleBatches(opts.db, { jobType: PROCESS_WEBHOOK_EVENT, olderThan, limit: lanes * 4 });
    for (const batch of stale) {
      await opts.dispatcher.recover(batch);
      stats.recovered++;
      opts.observe?.recovered();
    }
    return stale.length;
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      try {
        if (Date.now() - lastSweep >= Math.min(staleAfterMs, 5_000)) {
          lastSweep = Date.now();
          await sweep();
        }
        await tick();
        failures = 0;
      } catch (err) {
        failures++;
        const delay = backoffMs(failures, 30_000);
        log.warn({ err: (err as Error).message, retryInMs: delay }, 'outbox relay tick failed');
        // Notifications do not shorten this wait: under load they would defeat the backoff.
        for (let waited = 0; waited < delay && !stopped; waited += 100) await sleep(100);
        continue;
      }
      // Every free lane was just claimed: the next claim is worth making when a job arrives or
      // a batch finishes (both NOTIFY), or at the poll.
      if (!stopped) await waitForWake(pollIntervalMs);
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
    client.on('notification', (msg) => {
      if (!allLanesBusy || msg.payload === LANE_FREED) wake();
    });
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
    sweep,
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
