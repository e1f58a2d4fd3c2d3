import type { SecretName } from '@mos/core';
import type { DbOrTx } from './client';
import { deleteSecret, getSecretCiphertext, listSecretNames, putSecretCiphertext } from './queries/vault-secrets';
import { decryptSecret, encryptSecret } from './secret-cipher';

/**
 * The parts of the process env the vault reads (a structural slice of @mos/config's Env, so
 * storage does not depend on configuration).
 */
export interface VaultEnv {
  MOS_ENV: string;
  WEBHOOK_SIGNING_SECRET?: string;
  PROVIDER_WEBHOOK_VERIFY_TOKEN?: string;
  PARTNER_WEBHOOK_SECRET?: string;
}

/** Environment names that may stand in for a vault secret, outside production only. */
const ENV_FALLBACK: Partial<Record<SecretName, Exclude<keyof VaultEnv, 'MOS_ENV'>>> = {
  'webhook-signing-secret': 'WEBHOOK_SIGNING_SECRET',
  'provider-verify-token': 'PROVIDER_WEBHOOK_VERIFY_TOKEN',
  'partner-webhook-secret': 'PARTNER_WEBHOOK_SECRET',
};

export interface Vault {
  get(db: DbOrTx, workspaceId: string, name: SecretName): Promise<string | undefined>;
  set(db: DbOrTx, workspaceId: string, name: SecretName, value: string): Promise<void>;
  remove(db: DbOrTx, workspaceId: string, name: SecretName): Promise<boolean>;
  list(db: DbOrTx, workspaceId: string): Promise<{ name: string; updatedAt: Date }[]>;
}

/**
 * Per-workspace secrets, AES-256-GCM encrypted with the master key and bound to
 * (workspace, name). Environment fallbacks apply only when the vault has no entry and the
 * process is not in production.
 */
export function createVault(masterKey: Buffer, env: VaultEnv): Vault {
  const aad = (workspaceId: string, name: string) => `${workspaceId}/${name}`;
  return {
    async get(db, workspaceId, name) {
      const ciphertext = await getSecretCiphertext(db, workspaceId, name);
      if (ciphertext !== undefined) return decryptSecret(masterKey, ciphertext, aad(workspaceId, name));
      const fallback = ENV_FALLBACK[name];
      if (fallback && env.MOS_ENV !== 'production') {
        const value = env[fallback];
        if (typeof value === 'string' && value.length > 0) return value;
      }
      return undefined;
    },
    async set(db, workspaceId, name, value) {
      await putSecretCiphertext(db, workspaceId, name, encryptSecret(masterKey, value, aad(workspaceId, name)));
    },
    remove: (db, workspaceId, name) => deleteSecret(db, workspaceId, name),
    list: (db, workspaceId) => listSecretNames(db, workspaceId),
  };
}
