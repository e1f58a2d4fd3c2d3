import type { Clock, Role } from '@mos/core';
import type { Env, Logger, Vault } from '@mos/config';
import type { Db } from '@mos/db';

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
