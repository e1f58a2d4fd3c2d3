import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { systemClock, type Clock } from '@mos/core';
import type { Db } from '@mos/db';
import { describeTemporal, type Logger, type TemporalConnectionSettings } from '@mos/config';
import { lazyTemporalClient, type LazyTemporalClient } from '@mos/app';
import { WORKFLOWS_PATH, createActivities, type FamilyEffects } from '@mos/workflows';
import { defaultEffects } from './effects';
import { startHeartbeat, type Heartbeat } from './heartbeat';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
import { temporalBatchDispatcher } from './batch-dispatcher';
import { startGovernorSweep } from './governor-sweep';
import { startJourneyStarter } from './journey-starter';
import type { WorkerMetrics } from './metrics';

/** Worker knobs we tune (see docs/benchmarks.md); everything else keeps Temporal's defaults. */
export type WorkerTuning = Pick<
  WorkerOptions,
  | 'maxConcurrentActivityTaskExecutions'
  | 'maxConcurrentWorkflowTaskExecutions'
  | 'maxCachedWorkflows'
  | 'maxConcurrentActivityTaskPolls'
  | 'maxConcurrentWorkflowTaskPolls'
  | 'shutdownGraceTime'
  | 'workflowBundle'
>;

export interface WorkerRuntimeOptions {
  db: Db;
  databaseUrl: string;
  log: Logger;
  clock?: Clock;
  /** `{ ...env.temporal, taskQueue }` in a process (TLS, API key); tests may give just address and namespace. */
  temporal: TemporalConnectionSettings & { taskQueue: string };
  /**
   * The process's Temporal client (`AppDeps.temporal`), used by the relay and the start-up
   * hooks; its owner closes it. Without one the runtime opens its own from `temporal` and
   * closes it on stop.
   */
  temporalClient?: LazyTemporalClient;
  /** Defaults to `defaultEffects` (the production wiring). */
  effects?: FamilyEffects;
  /** `false` runs the Temporal worker without a relay (e.g. a second worker in a test). */
  relay?:
    | false
    | (Pick<OutboxRelayOptions, 'pollIntervalMs' | 'batchSize' | 'lanes' | 'staleAfterMs'> &
        Partial<Pick<OutboxRelayOptions, 'dispatcher'>> & {
          /**
           * Start batch runs eagerly on this worker (a client on the worker's own connection): the
           * start response carries the run's first workflow task, saving a dispatch. Default true.
           */
          eagerStart?: boolean;
        });
  heartbeatIntervalMs?: number;
  worker?: WorkerTuning;
  workerId?: string;
  /** Activities of other workflows on the same task queue (template sync, retention). */
  extraActivities?: object;
  /**
   * Idempotent set-up run once Temporal answers (e.g. ensuring schedules). A failure is
   * logged and does not stop the worker: the next start tries again.
   */
  onTemporalReady?: Array<(client: Client) => Promise<unknown>>;
  /**
   * Wakes send governors with due messages every so often (ms; default 15 s; false: off) through
   * this signal-with-start (app `signalGovernor`).
   */
  governorSweep?: false | { intervalMs?: number; signal(workspaceId: string, phoneNumberId: string): Promise<void> };
  /** Starts journey runs and delivers their reply signals from the outbox (default: on whenever the relay is). */
  journeyStarter?: false | { pollIntervalMs?: number };
  /** Aborting while Temporal is still unreachable at start stops relay and heartbeat and rejects. */
  signal?: AbortSignal;
  /**
   * The process's counters (metrics.ts): the relay, the journey starter, the governor sweep and
   * the webhook activities report to them. The send activities come in `extraActivities`: give
   * them `metrics.sends` as `observeSend`.
   */
  metrics?: WorkerMetrics;
}

export interface WorkerRuntime {
  workerId: string;
  relay: OutboxRelay | null;
  worker: Worker;
  /** Settles when the Temporal worker stops (rejects if it failed). */
  done: Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Temporal may be down when the process starts: keep trying, relay and heartbeat meanwhile. */
async function connectWithRetry(settings: TemporalConnectionSettings, log: Logger, signal?: AbortSignal): Promise<NativeConnection> {
  // The namespace is the worker's, not the connection's; absent options keep Temporal's defaults.
  const { namespace: _namespace, ...connectOptions } = settings;
  for (let attempt = 0; ; attempt++) {
    try {
      return await NativeConnection.connect(connectOptions);
    } catch (err) {
      if (signal?.aborted) throw err;
      const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 10));
      log.warn({ err: (err as Error).message, retryInMs: delay }, 'Temporal unavailable; retrying');
      await sleep(delay, signal);
      if (signal?.aborted) throw new Error('worker start aborted while waiting for Temporal');
    }
  }
}

/**
 * Everything the worker process runs, in one function shared by main.ts, tests, benchmarks
 * and up.sh: the outbox relay, the heartbeat and the Temporal worker. Resolves once the
 * worker is polling.
 */
export async function startWorkerRuntime(opts: WorkerRuntimeOptions): Promise<WorkerRuntime> {
  const clock = opts.clock ?? systemClock;
  const workerId = opts.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = opts.log.child({ workerId });

  const { taskQueue: _taskQueue, ...temporalSettings } = opts.temporal;
  const temporalClient = opts.temporalClient ?? lazyTemporalClient(temporalSettings);
  const closeOwnClient = () => (opts.temporalClient ? Promise.resolve() : temporalClient.close());
  // Eager starts need a client on the worker's own connection, which exists once the worker
  // does; until then the relay starts runs through the process's client.
  let eagerClient: Client | null = null;
  const { eagerStart = true, ...relayOptions } = opts.relay || {};
  const relay =
    opts.relay === false
      ? null
      : createOutboxRelay({
          db: opts.db,
          databaseUrl: opts.databaseUrl,
          dispatcher: temporalBatchDispatcher({
            temporal: async () => eagerClient ?? temporalClient.get(),
            eagerStart: () => eagerClient !== null,
            taskQueue: opts.temporal.taskQueue,
            db: opts.db,
            clock,
            log,
          }),
          log,
          clock,
          ...relayOptions,
          ...(opts.metrics ? { observe: opts.metrics.relay } : {}),
        });
  let worker: Worker | null = null;

  const busy = () => {
    const s = worker?.getStatus();
    const recentDispatch = relay?.stats.lastDispatchAt && clock.now().getTime() - relay.stats.lastDispatchAt.getTime() < 5_000;
    return (s && (s.numInFlightActivities > 0 || s.numInFlightWorkflowActivations > 0)) || recentDispatch ? 'busy' : 'idle';
  };
  const heartbeat: Heartbeat = startHeartbeat({
    db: opts.db,
    workerId,
    clock,
    log,
    intervalMs: opts.heartbeatIntervalMs,
    status: busy,
    details: () => ({
      taskQueue: opts.temporal.taskQueue,
      pid: process.pid,
      temporal: worker ? worker.getState() : 'connecting',
      relay: relay ? { ...relay.stats } : null,
    }),
  });
  relay?.start();

  let connection: NativeConnection;
  try {
    log.info(describeTemporal(temporalSettings), 'connecting to Temporal');
    connection = await connectWithRetry(temporalSettings, log, opts.signal);
    const { workflowBundle, ...tuning } = opts.worker ?? {};
    worker = await Worker.create({
      connection,
      namespace: opts.temporal.namespace,
      taskQueue: opts.temporal.taskQueue,
      ...(workflowBundle ? { workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
      activities: {
        ...opts.extraActivities,
        ...createActivities({ db: opts.db, log, clock, effects: opts.effects ?? defaultEffects({ log, clock }), observe: opts.metrics?.webhooks }),
      },
      identity: workerId,
      shutdownGraceTime: '5 seconds',
      ...tuning,
    });
  } catch (err) {
    await relay?.stop();
    await heartbeat.stop();
    await closeOwnClient();
    throw err;
  }
  const created = worker;
  const done = created.run();
  if (eagerStart) eagerClient = new Client({ connection, namespace: opts.temporal.namespace });
  log.info({ taskQueue: opts.temporal.taskQueue }, 'worker running');
  for (const setup of opts.onTemporalReady ?? []) {
    try {
      await setup(await temporalClient.get());
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'worker start-up task failed; continuing');
    }
  }

  const sweep = opts.governorSweep
    ? startGovernorSweep({
        db: opts.db,
        log,
        clock,
        intervalMs: opts.governorSweep.intervalMs ?? 15_000,
        signal: opts.governorSweep.signal,
        observe: opts.metrics?.governorSignal,
      })
    : null;

  const journeyStarter =
    opts.journeyStarter === false || (opts.journeyStarter === undefined && opts.relay === false)
      ? null
      : startJourneyStarter({
          db: opts.db,
          log,
          clock,
          temporal: () => temporalClient.get(),
          taskQueue: opts.temporal.taskQueue,
          observe: opts.metrics?.journeyJob,
          ...(opts.journeyStarter || {}),
        });

  let stopping: Promise<void> | null = null;
  return {
    workerId,
    relay,
    worker: created,
    done,
    stop() {
      stopping ??= (async () => {
        // Relay and sweep first: no new starts while the worker drains.
        await relay?.stop();
        await sweep?.stop();
        await journeyStarter?.stop();
        eagerClient = null;
        if (created.getState() === 'RUNNING') created.shutdown();
        await done.catch((err: unknown) => log.error({ err: (err as Error).message }, 'worker stopped with an error'));
        await connection.close();
        await closeOwnClient();
        await heartbeat.stop();
        log.info('worker stopped');
      })();
      return stopping;
    },
  };
}
