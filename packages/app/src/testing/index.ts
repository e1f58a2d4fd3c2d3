import { randomBytes } from 'node:crypto';
import { createLogger, loadEnv } from '@mos/config';
import { fixedClock, systemClock, type Clock, type Role } from '@mos/core';
import { createVault, setProviderIngressWorkspace, upsertMember, upsertWorkspace, type Db } from '@mos/db';
import { providerClientFromEnv } from '@mos/provider';
import type { AppDeps } from '../deps';
import { lazyTemporalClient } from '../temporal-client';
import { login } from '../auth/sessions';
import { hashPassword } from '../auth/passwords';

/**
 * Real deps over a test database: a fresh vault key, silent logs, an optional fixed clock,
 * the provider client the env names (none: a refusing one) and a Temporal connection that
 * opens only if a test starts a workflow.
 */
export function testDeps(db: Db, options: { clock?: Clock; env?: Record<string, string> } = {}): AppDeps {
  const env = loadEnv({ ...process.env, MOS_ENV: 'test', ...options.env });
  return {
    db,
    env,
    log: createLogger({ name: 'test', level: 'silent' }),
    clock: options.clock ?? systemClock,
    vault: createVault(randomBytes(32), env),
    provider: providerClientFromEnv(env),
    temporal: lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
  };
}

export { fixedClock };

export interface SeededOperator {
  workspaceId: string;
  workspaceSlug: string;
  memberId: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

/** Creates (or reuses) a workspace and a member with `role`, and signs them in. */
export async function seedOperator(
  deps: AppDeps,
  options: { workspace?: string; role?: Role; email?: string; providerIngress?: boolean; wabaId?: string; phoneNumberId?: string } = {},
): Promise<SeededOperator> {
  const slug = options.workspace ?? `ws-${randomBytes(4).toString('hex')}`;
  const role = options.role ?? 'owner';
  const email = options.email ?? `${role}-${randomBytes(3).toString('hex')}@${slug}.test`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const { workspace } = await upsertWorkspace(deps.db, slug, { wabaId: options.wabaId, phoneNumberId: options.phoneNumberId });
  if (options.providerIngress) await setProviderIngressWorkspace(deps.db, workspace.id);
  const { member } = await upsertMember(deps.db, workspace.id, { email, passwordHash: await hashPassword(password), role });
  const session = await login(deps, { email, password, workspace: slug });
  return { workspaceId: workspace.id, workspaceSlug: slug, memberId: member.id, email, password, role, token: session.sessionToken };
}
export * from './journeys';
