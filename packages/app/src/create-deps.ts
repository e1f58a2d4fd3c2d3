import { createLogger, resolveMasterKey, type Env } from '@mos/config';
import { systemClock } from '@mos/core';
import { createDatabase, createVault } from '@mos/db';
import { providerClientFromEnv } from '@mos/provider';
import type { AppDeps } from './deps';
import { lazyTemporalClient } from './temporal-client';

export interface AppProcess {
  deps: AppDeps;
  /** Closes what the process opened: the Temporal connection (if it was used), then the pool. */
  close(): Promise<void>;
}

/**
 * Builds a process's deps from its parsed env: one pool, one vault, one logger, one provider
 * client and one (lazy) Temporal connection. Every process (api, control plane, worker, CLI)
 * starts here.
 */
export function createAppDeps(env: Env, name: string): AppProcess {
  const database = createDatabase(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX, applicationName: `mos-${name}` });
  const temporal = lazyTemporalClient(env.temporal);
  const deps: AppDeps = {
    db: database.db,
    env,
    log: createLogger({ name, level: env.LOG_LEVEL }),
    clock: systemClock,
    vault: createVault(resolveMasterKey(env), env),
    provider: providerClientFromEnv(env),
    temporal,
  };
  return {
    deps,
    async close() {
      try {
        await temporal.close();
      } finally {
        await database.close();
      }
    },
  };
}
