import type { Clock } from '@mos/core';
import { governorsWithBacklog, type Db } from '@mos/db';
import type { Logger } from '@mos/config';

export interface GovernorSweep {
  stop(): Promise<void>;
}

/**
 * The safety net under `wakeGovernor`: every `intervalMs`, each business number with due
 * messages gets a signal-with-start. It covers a wake lost to a Temporal outage, an operator
 * terminating a governor, and a governor row left `active` by a crash. Cost: one signal per
 * busy number per interval, whatever the message rate.
 */
export function startGovernorSweep(opts: {
  db: Db;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  signal(workspaceId: string, phoneNumberId: string): Promise<void>;
  /** The worker's counters (metrics.ts). */
  observe?: (outcome: 'sent' | 'failed') => void;
}): GovernorSweep {
  let running: Promise<void> | null = null;
  const sweep = async () => {
    try {
      for (const g of await governorsWithBacklog(opts.db, opts.clock.now())) {
        await opts.signal(g.workspaceId, g.phoneNumberId).then(
          () => opts.observe?.('sent'),
          (err: unknown) => {
            opts.observe?.('failed');
            opts.log.warn({ err: (err as Error).message, ...g }, 'governor sweep: signal failed');
          },
        );
      }
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'governor sweep failed');
    }
  };
  const timer = setInterval(() => {
    running ??= sweep().finally(() => (running = null));
  }, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
