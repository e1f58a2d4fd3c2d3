import type { Env, Logger } from '@mos/config';
import { startMetricsServer, type MetricsServer } from '@mos/http';
import type { WorkerMetrics } from './metrics';

/**
 * The worker's HTTP side: GET /metrics (the shared handler: MOS_METRICS_TOKEN, off in production
 * without one) and GET /health, 200 while the Temporal worker runs, 503 while it connects or
 * drains. On WORKER_METRICS_PORT and HOST, like the other processes. A port already taken (a
 * second worker on the host) is logged and the worker runs on without it: metrics never stop work.
 */
export async function startWorkerMetricsServer(opts: {
  env: Pick<Env, 'HOST' | 'WORKER_METRICS_PORT' | 'MOS_METRICS_TOKEN' | 'MOS_ENV'>;
  log: Logger;
  metrics: WorkerMetrics;
  /** The Temporal worker's state ('RUNNING', ...), or 'connecting' before it exists. */
  state: () => string;
}): Promise<MetricsServer | null> {
  try {
    return await startMetricsServer({
      host: opts.env.HOST,
      port: opts.env.WORKER_METRICS_PORT,
      env: opts.env,
      registry: opts.metrics.registry,
      log: opts.log,
      name: 'worker',
      health: () => {
        const temporal = opts.state();
        return { healthy: temporal === 'RUNNING', body: { ok: temporal === 'RUNNING', service: 'worker', temporal } };
      },
    });
  } catch (err) {
    opts.log.warn({ err: (err as Error).message, port: opts.env.WORKER_METRICS_PORT }, 'worker metrics server could not listen; running without it');
    return null;
  }
}
