import { collectDefaultMetrics, Registry } from 'prom-client';

/** The metric types each process declares its own series with (one prom-client for the monorepo). */
export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process (per app instance in tests): Node's standard figures (CPU, memory,
 * event-loop lag, GC, handles) under `mos_<process>_`, beside the series the process adds.
 * Labels never name a workspace, a path or anything else a client chooses: every label value
 * comes from a fixed set.
 */
export function createMetricsRegistry(processName: 'api' | 'worker' | 'control_plane'): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `mos_${processName}_` });
  return registry;
}

/** Seconds buckets for request-to-answer latencies (5 ms to 10 s). */
export const REQUEST_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
