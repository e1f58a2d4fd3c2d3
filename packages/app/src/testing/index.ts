import { randomBytes } from 'node:crypto';
import { createLogger, loadEnv, type Env } from '@mos/config';
import { registerSensitive, registerViewerCredential, type SensitiveKind } from '@mos/config/testing';
import { fixedClock, systemClock, type Clock, type Role } from '@mos/core';
import { createVault, setProviderIngressWorkspace, upsertMember, upsertWorkspace, type Db, type Vault } from '@mos/db';
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
  registerEnvSecrets(env);
  return {
    db,
    env,
    log: createLogger({ name: 'test', level: 'silent' }),
    clock: options.clock ?? systemClock,
    vault: registeringVault(createVault(randomBytes(32), env)),
    provider: providerClientFromEnv(env),
    temporal: lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
  };
}

/** The secrets a test env configures, for the leak scan (issue 15). */
const ENV_SECRETS: [keyof Env, SensitiveKind][] = [
  ['WEBHOOK_SIGNING_SECRET', 'webhook-signing-secret'],
  ['PROVIDER_WEBHOOK_VERIFY_TOKEN', 'verify-token'],
  ['PARTNER_WEBHOOK_SECRET', 'partner-secret'],
  ['MOS_SERVICE_TOKEN', 'service-token'],
  ['MOS_METRICS_TOKEN', 'metrics-token'],
  ['MOS_MASTER_KEY', 'master-key'],
  ['TEMPORAL_API_KEY', 'temporal-api-key'],
];
function registerEnvSecrets(env: Env): void {
  for (const [name, kind] of ENV_SECRETS) registerSensitive(env[name] as string | undefined, kind);
}

/**
 * Every secret stored through these deps, by a test or by the app serving it, is registered for
 * the leak scan: the app under test shares the test's deps, so this sees the access tokens and
 * signing secrets a test configures over HTTP as well.
 */
function registeringVault(vault: Vault): Vault {
  return {
    ...vault,
    set: async (db, workspaceId, name, value) => {
      registerSensitive(value, 'vault-secret');
      await vault.set(db, workspaceId, name, value);
    },
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
  registerSensitive(password, 'password');
  const session = await login(deps, { email, password, workspace: slug });
  registerSensitive(session.sessionToken, 'session-token');
  if (role === 'viewer') registerViewerCredential(session.sessionToken);
  return { workspaceId: workspace.id, workspaceSlug: slug, memberId: member.id, email, password, role, token: session.sessionToken };
}
export * from './journeys';
export * from './credentials';
export * from './workspace-entities';
export * from './concurrency';
