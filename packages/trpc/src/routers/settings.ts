import { z } from 'zod';
import { ADMIN_ROLES, SETTINGS_ROLES, safeString } from '@mos/core';
import { apiKeyView, createApiKey, createApiKeyInput, listWorkspaceApiKeys, revokeWorkspaceApiKey } from '@mos/app';
import { scopeOf } from '@mos/app';
import { listWorkspaceSecrets, removeWorkspaceSecret, secretListing, secretNameSchema, setSecretInput, setWorkspaceSecret } from '@mos/app';
import { getWorkspaceSettings, providerSettingsInput, updateWorkspaceSettings, workspaceView } from '@mos/app';
import { roleProcedure, router } from '../trpc';

export const apiKeysRouter = router({
  list: roleProcedure(SETTINGS_ROLES)
    .output(z.object({ apiKeys: z.array(apiKeyView) }))
    .query(({ ctx }) => listWorkspaceApiKeys(ctx.deps, scopeOf(ctx.actor))),
  create: roleProcedure(SETTINGS_ROLES)
    .input(createApiKeyInput)
    .output(z.object({ id: z.string(), key: z.string(), prefix: z.string(), name: z.string() }))
    .mutation(({ ctx, input }) => createApiKey(ctx.deps, scopeOf(ctx.actor), input)),
  revoke: roleProcedure(SETTINGS_ROLES)
    .input(z.object({ id: safeString().min(1).max(64) }))
    .output(apiKeyView)
    .mutation(({ ctx, input }) => revokeWorkspaceApiKey(ctx.deps, scopeOf(ctx.actor), input.id)),
});

export const secretsRouter = router({
  list: roleProcedure(ADMIN_ROLES)
    .output(z.object({ secrets: z.array(secretListing) }))
    .query(({ ctx }) => listWorkspaceSecrets(ctx.deps, scopeOf(ctx.actor))),
  set: roleProcedure(ADMIN_ROLES)
    .input(setSecretInput)
    .output(z.object({ name: secretNameSchema, updatedAt: z.string() }))
    .mutation(({ ctx, input }) => setWorkspaceSecret(ctx.deps, scopeOf(ctx.actor), input)),
  remove: roleProcedure(ADMIN_ROLES)
    .input(z.object({ name: secretNameSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => removeWorkspaceSecret(ctx.deps, scopeOf(ctx.actor), input.name)),
});

export const workspaceRouter = router({
  get: roleProcedure(SETTINGS_ROLES)
    .output(workspaceView)
    .query(({ ctx }) => getWorkspaceSettings(ctx.deps, scopeOf(ctx.actor))),
  update: roleProcedure(ADMIN_ROLES)
    .input(providerSettingsInput)
    .output(workspaceView)
    .mutation(({ ctx, input }) => updateWorkspaceSettings(ctx.deps, scopeOf(ctx.actor), input)),
});
