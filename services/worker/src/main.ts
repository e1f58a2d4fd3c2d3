import { createLogger, loadEnvOrExit } from '@mos/config';
import { createDatabase } from '@mos/db';
import { startWorkerRuntime } from './worker';

/** The worker process: `pnpm dev:worker`. Stops cleanly on SIGINT/SIGTERM. */
const env = loadEnvOrExit();
const log = createLogger({ name: 'mos-worker', level: env.LOG_LEVEL });
const database = createDatabase(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX, applicationName: 'mos-worker' });

const runtime = await startWorkerRuntime({
  db: database.db,
  databaseUrl: env.DATABASE_URL,
  log,
  temporal: { address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE, taskQueue: env.TEMPORAL_TASK_QUEUE },
});

let exiting = false;
async function shutdown(signal: string, code = 0): Promise<void> {
  if (exiting) return;
  exiting = true;
  log.info({ signal }, 'stopping worker');
  await runtime.stop();
  await database.close();
  process.exit(code);
}

process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// The Temporal worker failing on its own (e.g. a broken workflow bundle) ends the process.
runtime.done.catch((err: unknown) => {
  log.error({ err: (err as Error).message }, 'Temporal worker failed');
  void shutdown('worker-failed', 1);
});
