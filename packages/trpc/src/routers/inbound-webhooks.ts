import { z } from 'zod';
import { ADMIN_ROLES, SETTINGS_ROLES, safeString } from '@mos/core';
import {
  createInboundWebhook,
  createInboundWebhookInput,
  deleteWorkspaceInboundWebhook,
  disableInboundWebhook,
  getInboundWebhookRun,
  getWorkspaceInboundWebhook,
  inboundRunView,
  inboundWebhookIdInput,
  inboundWebhookView,
  inboundWebhookWithSecret,
  listInboundRunsInput,
  listInboundWebhookRuns,
  listWorkspaceInboundWebhooks,
  makeInboundWebhookDryRun,
  mappingIssueView,
  previewInboundWebhook,
  previewInboundWebhookInput,
  promoteInboundWebhook,
  promoteInboundWebhookInput,
  rotateInboundWebhookSecret,
  scopeOf,
  updateInboundWebhookConfig,
  updateInboundWebhookInput,
} from '@mos/app';
import { roleProcedure, router } from '../trpc';

/**
 * Inbound webhook configurations (Settings, Integrations). Everything here is for settings
 * roles except `promote`, the owner/admin procedure that enables a configuration or takes it
 * live: the REST Settings surface has no route to it, so Settings-made configurations stay
 * disabled dry-runs until an admin acts (spec rule 5).
 */
export const inboundWebhooksRouter = router({
  list: roleProcedure(SETTINGS_ROLES)
    .output(z.object({ inboundWebhooks: z.array(inboundWebhookView) }))
    .query(({ ctx }) => listWorkspaceInboundWebhooks(ctx.deps, scopeOf(ctx.actor))),
  get: roleProcedure(SETTINGS_ROLES)
    .input(inboundWebhookIdInput)
    .output(inboundWebhookView)
    .query(({ ctx, input }) => getWorkspaceInboundWebhook(ctx.deps, scopeOf(ctx.actor), input.id)),
  create: roleProcedure(SETTINGS_ROLES)
    .input(createInboundWebhookInput)
    .output(inboundWebhookWithSecret)
    .mutation(({ ctx, input }) => createInboundWebhook(ctx.deps, scopeOf(ctx.actor), input, 'settings')),
  update: roleProcedure(SETTINGS_ROLES)
    .input(updateInboundWebhookInput)
    .output(inboundWebhookView)
    .mutation(({ ctx, input }) => updateInboundWebhookConfig(ctx.deps, scopeOf(ctx.actor), input)),
  rotateSecret: roleProcedure(SETTINGS_ROLES)
    .input(inboundWebhookIdInput)
    .output(inboundWebhookWithSecret)
    .mutation(({ ctx, input }) => rotateInboundWebhookSecret(ctx.deps, scopeOf(ctx.actor), input.id)),
  disable: roleProcedure(SETTINGS_ROLES)
    .input(inboundWebhookIdInput)
    .output(inboundWebhookView)
    .mutation(({ ctx, input }) => disableInboundWebhook(ctx.deps, scopeOf(ctx.actor), input.id)),
  dryRun: roleProcedure(SETTINGS_ROLES)
    .input(inboundWebhookIdInput)
    .output(inboundWebhookView)
    .mutation(({ ctx, input }) => makeInboundWebhookDryRun(ctx.deps, scopeOf(ctx.actor), input.id)),
  promote: roleProcedure(ADMIN_ROLES)
    .input(promoteInboundWebhookInput)
    .output(inboundWebhookView)
    .mutation(({ ctx, input }) => promoteInboundWebhook(ctx.deps, scopeOf(ctx.actor), input)),
  delete: roleProcedure(SETTINGS_ROLES)
    .input(inboundWebhookIdInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteWorkspaceInboundWebhook(ctx.deps, scopeOf(ctx.actor), input.id)),
  preview: roleProcedure(SETTINGS_ROLES)
    .input(previewInboundWebhookInput)
    .output(
      z.object({
        ok: z.boolean(),
        request: z.record(z.string(), z.unknown()).nullable(),
        stored: z.record(z.string(), z.unknown()).nullable(),
        issues: z.array(mappingIssueView),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const p = await previewInboundWebhook(ctx.deps, scopeOf(ctx.actor), input);
      return { ...p, request: p.request ? { ...p.request } : null, stored: p.stored ? { ...p.stored } : null };
    }),
  runs: roleProcedure(SETTINGS_ROLES)
    .input(listInboundRunsInput)
    .output(z.object({ runs: z.array(inboundRunView), nextCursor: z.string().nullable() }))
    .query(({ ctx, input }) => listInboundWebhookRuns(ctx.deps, scopeOf(ctx.actor), input)),
  run: roleProcedure(SETTINGS_ROLES)
    .input(z.object({ runId: safeString().min(1).max(64) }))
    .output(inboundRunView)
    .query(({ ctx, input }) => getInboundWebhookRun(ctx.deps, scopeOf(ctx.actor), input.runId)),
});
