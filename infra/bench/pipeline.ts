/**
 * The worker side of end-to-end.ts, ONE implementation for both places it runs: inside the
 * bench process (default) and in the worker child (worker-process.ts, `--worker-process`).
 *
 * - Temporal mode: `startWorkerRuntime` (relay + Temporal worker + batch apply), the code
 *   services/worker/src/main.ts runs under up.sh, with the production effects unless `noop`.
 * - no-Temporal mode: the same relay with `inProcessDispatcher`, which applies each batch in
 *   the process (createApplyWebhookBatch, looping on `not_attempted`), no Temporal at all.
 *
 * Also the IPC messages between end-to-end.ts and worker-process.ts, and the SQL statement
 * counter both processes use.
 *
 * Imports go through relative paths because infra/ is not a workspace package.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../packages/config/src/index';
import type { Clock } from '../../packages/core/src/index';
import type { ClaimedBatch, Db } from '../../packages/db/src/index';
import { batchInput, createOutboxRelay, defaultEffects, startWorkerRuntime, type BatchDispatcher, type OutboxRelay } from '../../services/worker/src/index';
import { composeEffects, ensureSearchAttributes, type FamilyEffects } from '../../workflows/src/index';
import { createApplyWebhookBatch, createRecordFailure, type ActivityDeps } from '../../workflows/src/webhook-processing/activities';
import { WebhookFailureType, type WebhookBatchJob, type WebhookOutcome } from '../../workflows/src/webhook-processing/contract';

export type Mode = 'temporal' | 'no-temporal';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// SQL statements sent by this process
// ---------------------------------------------------------------------------------------------

/**
 * SQL statements sent by this process (every node-postgres client of the process: whatever of
 * ingress, relay and worker activities runs here, and the bench's queue sampling). Counted by
 * wrapping Client.prototype.query once; infra/ cannot import pg itself, so the class comes
 * from a pool.
 */
export const sqlStatements = { count: 0 };
export function countStatements(pool: unknown): void {
  const client = (pool as { Client: { prototype: { query: (...a: unknown[]) => unknown; __benchCounted?: boolean } } }).Client.prototype;
  if (client.__benchCounted) return;
  const query = client.query;
  client.query = function (this: unknown, ...a: unknown[]) {
    sqlStatements.count++;
    return query.apply(this, a);
  };
  client.__benchCounted = true;
}

// ---------------------------------------------------------------------------------------------
// The no-Temporal dispatcher
// ---------------------------------------------------------------------------------------------

export interface InProcessStats {
  batches: number;
  calls: number;
  failedWebhooks: number;
  errors: number;
  applyMs: number;
  attempted: number;
}

export interface InProcessDispatcher extends BatchDispatcher {
  /** Resolves true once no batch is being applied (false at the deadline). */
  idle(timeoutMs: number): Promise<boolean>;
  readonly stats: InProcessStats;
}

/**
 * What `processWebhookBatch` does, minus Temporal: apply the batch through the same local
 * activity function (`createApplyWebhookBatch`), again on the `not_attempted` rest, and record
 * any webhook that failed as failed (the workflow would hand it to its own run). A call that
 * throws is retried like the local activity (4 attempts, backoff from 500 ms). dispatch returns
 * at once, like a run start: the work is tracked and awaited at drain.
 */
export function inProcessDispatcher(deps: ActivityDeps): InProcessDispatcher {
  const apply = createApplyWebhookBatch(deps);
  const recordFailure = createRecordFailure(deps);
  const inFlight = new Set<Promise<void>>();
  const running = new Set<string>();
  const stats: InProcessStats = { batches: 0, calls: 0, failedWebhooks: 0, errors: 0, applyMs: 0, attempted: 0 };

  async function run(batch: ClaimedBatch): Promise<void> {
    const input = batchInput(batch, deps.clock.now());
    const failed: (WebhookBatchJob & { type: string; message: string })[] = [];
    let jobs = input.jobs;
    while (jobs.length > 0) {
      let outcomes: WebhookOutcome[] | null = null;
      for (let attempt = 1; outcomes === null; attempt++) {
        stats.calls++;
        const t0 = performance.now();
        try {
          ({ outcomes } = await apply({ batchId: input.batchId, jobs }));
          stats.applyMs += performance.now() - t0;
          stats.attempted += outcomes.filter((o) => o.outcome !== 'not_attempted').length;
        } catch (err) {
          if (attempt >= 4) {
            for (const job of jobs) failed.push({ ...job, type: WebhookFailureType.BatchCallFailed, message: String((err as Error).message).slice(0, 300) });
            break;
          }
          await sleep(Math.min(5_000, 500 * 2 ** (attempt - 1)));
        }
      }
      if (outcomes === null) break;
      const byJob = new Map(jobs.map((j) => [j.jobId, j]));
      const next: WebhookBatchJob[] = [];
      for (const o of outcomes) {
        const job = byJob.get(o.jobId);
        if (!job) continue;
        if (o.outcome === 'failed') failed.push({ ...job, type: o.type, message: o.message });
        else if (o.outcome === 'not_attempted') next.push(job);
      }
      jobs = next;
    }
    for (const f of failed) {
      stats.failedWebhooks++;
      await recordFailure({
        workspaceId: f.workspaceId,
        webhookEventId: f.webhookEventId,
        jobId: f.jobId,
        deliveryId: f.deliveryId,
        type: f.type,
        message: f.message,
      });
    }
  }

  const dispatcher: InProcessDispatcher = {
    stats,
    async ready() {},
    async dispatch(batch) {
      // A batch already being applied counts as started (REJECT_DUPLICATE on a run in flight).
      if (running.has(batch.batchId)) return;
      running.add(batch.batchId);
      stats.batches++;
      const p: Promise<void> = run(batch)
        .catch((err: unknown) => {
          stats.errors++;
          deps.log.error({ batchId: batch.batchId, err: (err as Error).message }, 'in-process batch failed');
        })
        .finally(() => {
          running.delete(batch.batchId);
          inFlight.delete(p);
        });
      inFlight.add(p);
    },
    async recover(batch) {
      // Jobs left dispatched by a batch that is no longer running: apply them again (each
      // webhook is applied once: an applied one comes back `already_applied`).
      await dispatcher.dispatch(batch);
    },
    async idle(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (inFlight.size > 0 && Date.now() < deadline) await Promise.race([Promise.allSettled([...inFlight]), sleep(deadline - Date.now())]);
      return inFlight.size === 0;
    },
  };
  return dispatcher;
}

// ---------------------------------------------------------------------------------------------
// The pipeline: Temporal runtime, or relay + in-process dispatcher
// ---------------------------------------------------------------------------------------------

/** Everything the worker side needs; plain data, so the parent can hand it to the child as JSON. */
export interface PipelineConfig {
  mode: Mode;
  databaseUrl: string;
  /** Temporal mode only. */
  temporal: { address: string; namespace: string; taskQueue: string } | null;
  relay: { batchSize: number; lanes: number; pollIntervalMs: number; eagerStart: boolean };
  worker: { activities: number; cachedWorkflows: number; workflowTasks: number };
  effects: 'default' | 'noop';
}

export interface Pipeline {
  relay: OutboxRelay;
  /** no-Temporal mode only. */
  inProcess: InProcessDispatcher | null;
  stop(): Promise<void>;
}

export async function startPipeline(cfg: PipelineConfig, deps: { db: Db; log: Logger; clock: Clock }): Promise<Pipeline> {
  const { db, log, clock } = deps;
  const noop: FamilyEffects | undefined = cfg.effects === 'noop' ? composeEffects() : undefined;
  const { eagerStart, ...relayOptions } = cfg.relay;
  let pipeline: Pipeline;
  if (cfg.mode === 'temporal') {
    if (!cfg.temporal) throw new Error('the Temporal pipeline needs an address, namespace and task queue');
    const runtime = await startWorkerRuntime({
      db,
      databaseUrl: cfg.databaseUrl,
      log,
      clock,
      temporal: cfg.temporal,
      // Unset: the production wiring (defaultEffects), as main.ts runs it.
      effects: noop,
      relay: { ...relayOptions, eagerStart },
      worker: {
        maxConcurrentActivityTaskExecutions: cfg.worker.activities,
        maxCachedWorkflows: cfg.worker.cachedWorkflows,
        maxConcurrentWorkflowTaskExecutions: cfg.worker.workflowTasks,
      },
      // As main.ts does: a Temporal started without the pipeline's attributes gets them.
      onTemporalReady: [(client) => ensureSearchAttributes(client)],
    });
    pipeline = { relay: runtime.relay!, inProcess: null, stop: () => runtime.stop() };
  } else {
    const inProcess = inProcessDispatcher({ db, log, clock, effects: noop ?? defaultEffects({ log, clock }) });
    const relay = createOutboxRelay({ db, databaseUrl: cfg.databaseUrl, dispatcher: inProcess, log, clock, ...relayOptions });
    relay.start();
    pipeline = {
      relay,
      inProcess,
      async stop() {
        await relay.stop();
        await inProcess.idle(30_000);
      },
    };
  }
  // Ready means the relay hears NOTIFY (else the first jobs wait for the fallback poll).
  const deadline = Date.now() + 10_000;
  while (!pipeline.relay.stats.listening && Date.now() < deadline) await sleep(20);
  if (!pipeline.relay.stats.listening) log.warn('the outbox relay is not listening after 10 s; continuing on the fallback poll');
  return pipeline;
}

// ---------------------------------------------------------------------------------------------
// Stats, and the IPC between end-to-end.ts and worker-process.ts
// ---------------------------------------------------------------------------------------------

export type RelayCounters = Pick<OutboxRelay['stats'], 'dispatched' | 'batches' | 'batchSizes' | 'startFailures' | 'recovered'>;

/** Cumulative counters of the worker side; a run diffs two of them. */
export interface WorkerSnapshot {
  relay: RelayCounters;
  inProcess: InProcessStats | null;
  /** Set by a worker child only (in process, these are the bench process's own). */
  process: {
    pid: number;
    /** process.cpuUsage(), user + system, ms (every thread: libuv pool, Temporal core, workflow threads). */
    cpuMs: number;
    /** performance.eventLoopUtilization() of the child's main thread, cumulative ms. */
    elu: { idle: number; active: number };
    sqlStatements: number;
  } | null;
}

export function pipelineSnapshot(p: Pipeline): Omit<WorkerSnapshot, 'process'> {
  const s = p.relay.stats;
  return {
    relay: { dispatched: s.dispatched, batches: s.batches, batchSizes: { ...s.batchSizes }, startFailures: s.startFailures, recovered: s.recovered },
    inProcess: p.inProcess ? { ...p.inProcess.stats } : null,
  };
}

/** Parent -> child: a request, answered by the FromWorker of the same type and id. */
export type WorkerRequest = { type: 'snapshot' } | { type: 'idle'; timeoutMs: number };
export type ToWorker = WorkerRequest & { id: number };
/** Child -> parent. */
export type FromWorker =
  | { type: 'ready'; pid: number }
  | { type: 'failed'; message: string }
  | { type: 'snapshot'; id: number; snapshot: WorkerSnapshot }
  | { type: 'idle'; id: number; idle: boolean };
