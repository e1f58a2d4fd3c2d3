/**
 * Child process of end-to-end.ts (`--worker-process`): the worker side of the pipeline in its
 * own process, as ./infra/up.sh runs services/worker/src/main.ts apart from the API, so the
 * load generator's event loop and the worker's are not the same one. Runs pipeline.ts's
 * `startPipeline` (Temporal: relay + Temporal worker + batch apply; no-Temporal: the relay with
 * the in-process dispatcher) over the bench's database.
 *
 *   node --import tsx infra/bench/worker-process.ts '<PipelineConfig as JSON>'
 *   (env: DATABASE_POOL_MAX, LOG_LEVEL; stdio must include an 'ipc' channel)
 *
 * IPC (pipeline.ts's ToWorker / FromWorker): sends `ready` once the relay listens and the
 * worker runs (or `failed`); answers `snapshot` (relay counters, in-process apply counters,
 * its own CPU, event-loop utilization and SQL statements) and `idle` (no-Temporal: no batch
 * being applied). SIGTERM, or the parent going away, stops the pipeline and the pool and exits.
 */
import { performance } from 'node:perf_hooks';
import { createLogger } from '../../packages/config/src/index';
import type { Clock } from '../../packages/core/src/index';
import { createDatabase } from '../../packages/db/src/index';
import {
  countStatements,
  pipelineSnapshot,
  sqlStatements,
  startPipeline,
  type FromWorker,
  type Pipeline,
  type PipelineConfig,
  type ToWorker,
} from './pipeline';

if (!process.send) throw new Error('worker-process.ts runs as a child of end-to-end.ts, with an IPC channel');
const send = (msg: FromWorker) => {
  if (process.connected) process.send!(msg);
};

const cfg = JSON.parse(process.argv[2] ?? '') as PipelineConfig;
const log = createLogger({ name: 'bench-worker', level: process.env.LOG_LEVEL ?? 'warn' });
const clock: Clock = { now: () => new Date() };
const database = createDatabase(cfg.databaseUrl, { max: Number(process.env.DATABASE_POOL_MAX ?? 10), applicationName: 'mos-bench-worker' });
countStatements(database.pool);

let pipeline: Pipeline | null = null;
const starting = startPipeline(cfg, { db: database.db, log, clock });

let exiting = false;
async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  const p = pipeline ?? (await starting.catch(() => null));
  try {
    await p?.stop();
  } catch (err) {
    log.error({ err: (err as Error).message }, 'bench worker stopped with an error');
    code = code || 1;
  }
  await database.close().catch(() => {});
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
// The parent died without stopping us: do not linger.
process.on('disconnect', () => void shutdown(0));

process.on('message', (raw) => {
  const msg = raw as ToWorker;
  if (!pipeline) return;
  const p = pipeline;
  if (msg.type === 'snapshot') {
    const u = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    send({
      type: 'snapshot',
      id: msg.id,
      snapshot: {
        ...pipelineSnapshot(p),
        process: { pid: process.pid, cpuMs: (u.user + u.system) / 1000, elu: { idle: elu.idle, active: elu.active }, sqlStatements: sqlStatements.count },
      },
    });
  } else if (msg.type === 'idle') {
    void (p.inProcess ? p.inProcess.idle(msg.timeoutMs) : Promise.resolve(true)).then((idle) => send({ type: 'idle', id: msg.id, idle }));
  }
});

starting.then(
  (p) => {
    pipeline = p;
    send({ type: 'ready', pid: process.pid });
  },
  (err: unknown) => {
    send({ type: 'failed', message: (err as Error).message });
    void shutdown(1);
  },
);
