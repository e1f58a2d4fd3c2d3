import type { Clock, Role } from '@mos/core';
import type { Env, Logger, Vault } from '@mos/config';
import type { Db } from '@mos/db';
import type { ProviderClient } from '@mos/provider';

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
  /** The provider's API; when absent, built from PROVIDER_BASE_URL on first use (see providerOf). */
  provider?: ProviderClient;
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
