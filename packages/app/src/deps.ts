import type { Clock, Role } from '@mos/core';
import type { Env, Logger } from '@mos/config';
import type { Db, Vault } from '@mos/db';
import type { ProviderClient } from '@mos/provider';
import type { LazyTemporalClient } from './temporal-client';

/**
 * Everything a service function needs, built once per process and injected, so tests pass
 * a real database with a fixed clock and no module-level singletons exist.
 */
export interface AppDeps {
  db: Db;
  env: Env;
  log: Logger;
  clock: Clock;
  vault: Vault;
  /** The provider's API (providerClientFromEnv: a refusing client when none is configured). */
  provider: ProviderClient;
  /** The process's one Temporal connection, opened on first use. */
  temporal: LazyTemporalClient;
}

/** The authenticated operator: every workspace-scoped call takes its workspace from here. */
export interface Actor {
  sessionId: string;
  memberId: string;
  email: string;
  role: Role;
  workspaceId: string;
  workspaceSlug: string;
  expiresAt: Date;
}
