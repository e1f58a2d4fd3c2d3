import { loadEnvOrExit } from '@mos/config';
import { createAppDeps, reconcileJourneySchedules, sendJourneyTemplate, signalGovernor, wakeGovernor } from '@mos/app';
import {
  createJourneyActivities,
  createJourneyScheduleActivities,
  createSendingActivities,
  createTemplateActivities,
  ensureRetentionSchedules,
  ensureSearchAttributes,
  ensureTemplateSyncSchedule,
} from '@mos/workflows';
import { startWorkerRuntime, type WorkerRuntime } from './worker';
import { workflowSourceFor, type WorkflowSource } from './workflow-bundle';
import { createWorkerMetrics } from './metrics';
import { startWorkerMetricsServer } from './metrics-server';

/** The worker process: `pnpm dev:worker`. Stops cleanly on SIGINT/SIGTERM, also while Temporal is still unreachable. */
const env = loadEnvOrExit();
// One pool, logger, vault, provider client and (lazy) Temporal client, as every process builds them.
const app = createAppDeps(env, 'worker');
const { deps } = app;
const log = deps.log;
const abort = new AbortController();

let source: WorkflowSource;
try {
  source = workflowSourceFor(env);
} catch (err) {
  log.fatal({ err: (err as Error).message }, 'no workflow code to run');
  await app.close();
  process.exit(2);
}
log.info('workflowBundle' in source ? { workflowBundle: source.workflowBundle.codePath } : { workflowsPath: source.workflowsPath }, 'workflow code');

// The process's counters and its GET /metrics + /health server (docs/operations.md), up while Temporal is still connecting.
const metrics = createWorkerMetrics({ db: deps.db, log });
let workerState = () => 'connecting';
const metricsServer = startWorkerMetricsServer({ env, log, metrics, state: () => workerState() });

const starting: Promise<WorkerRuntime> = startWorkerRuntime({
  db: deps.db,
  databaseUrl: env.DATABASE_URL,
  log,
  clock: deps.clock,
  temporal: { ...env.temporal, taskQueue: env.TEMPORAL_TASK_QUEUE },
  temporalClient: deps.temporal,
  relay: { batchSize: env.WEBHOOK_BATCH_MAX, lanes: env.WEBHOOK_BATCH_LANES },
  metrics,
  ...('workflowBundle' in source ? { worker: { workflowBundle: source.workflowBundle } } : {}),
  // Without PROVIDER_BASE_URL the provider client refuses every call, so a sync page fails non-retryably.
  extraActivities: {
    ...createTemplateActivities({ db: deps.db, log, vault: deps.vault, provider: deps.provider, clock: deps.clock }),
    ...createSendingActivities({
      db: deps.db,
      log,
      vault: deps.vault,
      provider: deps.provider,
      clock: deps.clock,
      wakeGovernor: (workspaceId, phoneNumberId) => wakeGovernor(deps, workspaceId, phoneNumberId),
      observeSend: metrics.sends,
    }),
    ...createJourneyActivities({
      db: deps.db,
      log,
      clock: deps.clock,
      sendTemplate: (workspaceId, request, key) => sendJourneyTemplate(deps, workspaceId, request, key),
    }),
    ...createJourneyScheduleActivities({ db: deps.db, log, clock: deps.clock }),
  },
  governorSweep: { signal: (workspaceId, phoneNumberId) => signalGovernor(deps, workspaceId, phoneNumberId) },
  onTemporalReady: [
    async (client) => {
      const added = await ensureSearchAttributes(client);
      if (added.length > 0) log.info({ added }, 'search attributes registered');
    },
    (client) => ensureTemplateSyncSchedule(client, { taskQueue: env.TEMPORAL_TASK_QUEUE }),
    (client) => ensureRetentionSchedules(client, { taskQueue: env.TEMPORAL_TASK_QUEUE }),
    () => reconcileJourneySchedules(deps),
  ],
  signal: abort.signal,
});
starting.then(
  (runtime) => (workerState = () => runtime.worker.getState()),
  () => {},
);

let exiting = false;
async function shutdown(signal: string, code = 0): Promise<void> {
  if (exiting) return;
  exiting = true;
  log.info({ signal }, 'stopping worker');
  // A start still waiting for Temporal gives up, cleaning up its relay and heartbeat.
  abort.abort();
  const runtime = await starting.catch(() => null);
  await runtime?.stop();
  await (await metricsServer)?.close();
  // The Temporal connection, then the pool.
  await app.close();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

starting.then(
  // The Temporal worker failing on its own (e.g. a broken workflow bundle) ends the process.
  (runtime) =>
    runtime.done.catch((err: unknown) => {
      log.error({ err: (err as Error).message }, 'Temporal worker failed');
      void shutdown('worker-failed', 1);
    }),
  (err: unknown) => {
    if (exiting) return;
    log.error({ err: (err as Error).message }, 'worker failed to start');
    void shutdown('start-failed', 1);
  },
);
