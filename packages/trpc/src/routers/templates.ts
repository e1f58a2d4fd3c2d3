import { z } from 'zod';
import { ADMIN_ROLES, AppError, SETTINGS_ROLES, type ErrorCode } from '@mos/core';
import { scopeOf } from '@mos/app';
import {
  createTemplateInput,
  createWorkspaceTemplate,
  deleteWorkspaceTemplate,
  getWorkspaceTemplate,
  listSyncedTemplatesInput,
  listWorkspaceSyncedTemplates,
  listWorkspaceTemplates,
  reviseWorkspaceTemplate,
  seedStarterPack,
  starterPackOutput,
  submitTemplateOutput,
  submitWorkspaceTemplate,
  syncedTemplateView,
  templateId,
  templateView,
  updateTemplateInput,
  updateWorkspaceTemplate,
  validateTemplateDraft,
  validateTemplateInput,
  validateTemplateOutput,
} from '@mos/app';
import { middleware, operatorProcedure, roleProcedure, router, toTRPCError } from '../trpc';
import { ZodError } from 'zod';

/**
 * The spec answers a malformed create/update body with 400 create_failed/update_failed
 * (not the generic invalid_request), with a message naming each problem. Placed before
 * `.input()`, so it sees the input parser's failure and nothing else changes.
 */
function inputErrorsAs(code: ErrorCode) {
  return middleware(async ({ next }) => {
    const result = await next();
    if (!result.ok && result.error.cause instanceof ZodError) {
      const issues = result.error.cause.issues;
      const message = issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return { ...result, error: toTRPCError(new AppError(code, { message, issues })) } as typeof result;
    }
    return result;
  });
}

const settings = roleProcedure(SETTINGS_ROLES);

/** The local template library (/api/templates): drafts an operator writes and submits. */
export const templatesRouter = router({
  list: settings.output(z.object({ templates: z.array(templateView) })).query(({ ctx }) => listWorkspaceTemplates(ctx.deps, scopeOf(ctx.actor))),
  get: settings
    .input(templateId)
    .output(templateView)
    .query(({ ctx, input }) => getWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input.id)),
  create: settings
    .use(inputErrorsAs('create_failed'))
    .input(createTemplateInput)
    .output(templateView)
    .mutation(({ ctx, input }) => createWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input)),
  update: settings
    .use(inputErrorsAs('update_failed'))
    .input(updateTemplateInput)
    .output(templateView)
    .mutation(({ ctx, input }) => updateWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input)),
  delete: settings
    .input(templateId)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input.id)),
  submit: settings
    .input(templateId)
    .output(submitTemplateOutput)
    .mutation(({ ctx, input }) => submitWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input.id)),
  revise: settings
    .input(templateId)
    .output(templateView)
    .mutation(({ ctx, input }) => reviseWorkspaceTemplate(ctx.deps, scopeOf(ctx.actor), input.id)),
  validate: settings
    .input(validateTemplateInput)
    .output(validateTemplateOutput)
    .query(({ input }) => validateTemplateDraft(input)),
  seedStarterPack: roleProcedure(ADMIN_ROLES)
    .output(starterPackOutput)
    .mutation(({ ctx }) => seedStarterPack(ctx.deps, scopeOf(ctx.actor))),
});

/**
 * The provider's copy of the workspace's templates, kept by the sync job (GET /internal/templates):
 * any operator reads it, like the other /internal lists.
 */
export const syncedTemplatesRouter = router({
  list: operatorProcedure
    .input(listSyncedTemplatesInput.optional())
    .output(z.object({ templates: z.array(syncedTemplateView) }))
    .query(({ ctx, input }) => listWorkspaceSyncedTemplates(ctx.deps, scopeOf(ctx.actor), input ?? {})),
});
