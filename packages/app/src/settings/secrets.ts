import { z } from 'zod';
import { AppError, SECRET_NAMES, type SecretName, safeString } from '@mos/core';
import { writeAuditLog } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

export const secretNameSchema = z.enum(SECRET_NAMES);
export const setSecretInput = z.object({ name: secretNameSchema, value: safeString().min(1).max(8192) });
export const secretListing = z.object({ name: z.string(), updatedAt: z.string() });

/** Values go in, never out: there is deliberately no "get secret" surface. */
export async function setWorkspaceSecret(deps: AppDeps, scope: Scope, input: z.infer<typeof setSecretInput>): Promise<{ name: SecretName; updatedAt: string }> {
  await deps.db.transaction(async (tx) => {
    await deps.vault.set(tx, scope.workspaceId, input.name, input.value);
    await writeAuditLog(tx, scope.workspaceId, { action: 'secret.set', actorId: scope.actorId, targetId: input.name });
  });
  const entry = (await deps.vault.list(deps.db, scope.workspaceId)).find((s) => s.name === input.name);
  return { name: input.name, updatedAt: (entry?.updatedAt ?? deps.clock.now()).toISOString() };
}

/** Names and update times; never values. */
export async function listWorkspaceSecrets(deps: AppDeps, scope: Scope): Promise<{ secrets: z.infer<typeof secretListing>[] }> {
  return { secrets: (await deps.vault.list(deps.db, scope.workspaceId)).map((s) => ({ name: s.name, updatedAt: s.updatedAt.toISOString() })) };
}

export async function removeWorkspaceSecret(deps: AppDeps, scope: Scope, name: SecretName): Promise<{ ok: true }> {
  await deps.db.transaction(async (tx) => {
    if (!(await deps.vault.remove(tx, scope.workspaceId, name))) throw new AppError('not_found', { message: `secret ${name} is not set` });
    await writeAuditLog(tx, scope.workspaceId, { action: 'secret.remove', actorId: scope.actorId, targetId: name });
  });
  return { ok: true };
}
