import { createLogger, createVault, resolveMasterKey, type Env } from '@mos/config';
import { systemClock } from '@mos/core';
import { createDatabase, type Database } from '@mos/db';
import type { AppDeps } from './deps';

/** Builds a process's deps from its parsed env: one pool, one vault, one logger. */
export function createAppDeps(env: Env, name: string): { deps: AppDeps; database: Database } {
  const database = createDatabase(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX, applicationName: `mos-${name}` });
  const deps: AppDeps = {
    db: database.db,
    env,
    log: createLogger({ name, level: env.LOG_LEVEL }),
    clock: systemClock,
    vault: createVault(resolveMasterKey(env), env),
  };
  return { deps, database };
}
