import { beatWorker, type Db } from '@mos/db';
import type { Clock } from '@mos/core';
import type { Logger } from '@mos/config';

export interface Heartbeat {
  stop(): Promise<void>;
}

/**
 * Writes this worker's liveness row every `intervalMs` for /ready. A failed beat is logged
 * and retried at the next interval: the database being briefly away must not kill the worker.
 */
export function startHeartbeat(opts: {
  db: Db;
  workerId: string;
  clock: Clock;
  log: Logger;
  intervalMs?: number;
  status: () => 'idle' | 'busy';
  details?: () => Record<string, unknown>;
}): Heartbeat {
  const startedAt = opts.clock.now();
  let inFlight: Promise<void> = Promise.resolve();
  const beat = (status: 'idle' | 'busy' | 'stopping') => {
    inFlight = beatWorker(opts.db, { workerId: opts.workerId, status, startedAt, now: opts.clock.now(), details: opts.details?.() }).catch((err: unknown) =>
      opts.log.warn({ err: (err as Error).message }, 'worker heartbeat failed'),
    );
    return inFlight;
  };
  void beat(opts.status());
  const timer = setInterval(() => void beat(opts.status()), opts.intervalMs ?? 5_000);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      await beat('stopping');
    },
  };
}
