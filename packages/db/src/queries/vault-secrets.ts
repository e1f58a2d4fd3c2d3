import { and, asc, eq } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { vaultSecrets } from '../schema/index';

export async function putSecretCiphertext(db: DbOrTx, workspaceId: string, name: string, ciphertext: string): Promise<void> {
  await db
    .insert(vaultSecrets)
    .values({ id: newId('secret'), workspaceId, name, ciphertext })
    .onConflictDoUpdate({ target: [vaultSecrets.workspaceId, vaultSecrets.name], set: { ciphertext, updatedAt: new Date() } });
}

export async function getSecretCiphertext(db: DbOrTx, workspaceId: string, name: string): Promise<string | undefined> {
  const [row] = await db
    .select({ ciphertext: vaultSecrets.ciphertext })
    .from(vaultSecrets)
    .where(and(eq(vaultSecrets.workspaceId, workspaceId), eq(vaultSecrets.name, name)));
  return row?.ciphertext;
}

/** Names and times only: values never leave the vault through a listing. */
export async function listSecretNames(db: DbOrTx, workspaceId: string): Promise<{ name: string; updatedAt: Date }[]> {
  return db
    .select({ name: vaultSecrets.name, updatedAt: vaultSecrets.updatedAt })
    .from(vaultSecrets)
    .where(eq(vaultSecrets.workspaceId, workspaceId))
    .orderBy(asc(vaultSecrets.name));
}

export async function deleteSecret(db: DbOrTx, workspaceId: string, name: string): Promise<boolean> {
  const rows = await db
    .delete(vaultSecrets)
    .where(and(eq(vaultSecrets.workspaceId, workspaceId), eq(vaultSecrets.name, name)))
    .returning({ id: vaultSecrets.id });
  return rows.length > 0;
}
