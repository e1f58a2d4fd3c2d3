import { z } from 'zod';
import { AppError, LIMITS, pageSchema, PARAMETER_FORMATS, safeString, nulFree, NUL_MESSAGE } from '@mos/core';
import { applyTemplateStatusUpdate, getWorkspace, listSyncedTemplates, upsertSyncedTemplate } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toSyncedTemplateView, type SyncedTemplateView } from './views';

/**
 * Synced templates: the provider's copy of the workspace's templates, written by the sync job
 * and the status webhooks (spec: "Synced template", GET /internal/templates; tRPC
 * `syncedTemplates.*`). The local library (/api/templates, tRPC `templates.*`) is library.ts.
 */

export const listSyncedTemplatesInput = pageSchema(LIMITS.syncedTemplates);

/** GET /internal/templates, tRPC syncedTemplates.list: an offset page, the caller's workspace only. */
export async function listWorkspaceSyncedTemplates(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listSyncedTemplatesInput> = {},
): Promise<{ templates: SyncedTemplateView[] }> {
  const page = listSyncedTemplatesInput.parse(input);
  return { templates: (await listSyncedTemplates(deps.db, scope.workspaceId, page)).map(toSyncedTemplateView) };
}

/** POST /internal/templates: one template as the provider reported it (machine-to-machine). */
export const providerTemplateUpsertInput = z.object({
  workspaceId: safeString().min(1).max(64),
  providerTemplateId: safeString().min(1).max(64),
  name: safeString().min(1).max(512),
  language: safeString().min(1).max(16),
  /** The provider's status or status-webhook event (APPROVED, REJECTED, PENDING, ...). */
  status: safeString().min(1).max(32),
  category: safeString().min(1).max(32).optional(),
  reason: safeString().max(2048).nullable().optional(),
  components: z.array(z.record(safeString(), z.unknown())).max(10).refine(nulFree, NUL_MESSAGE).optional(),
  parameterFormat: z.enum(PARAMETER_FORMATS).optional(),
});

/**
 * Applies the status through the same path as the webhook pipeline (library and synced copy
 * agree), then stores the components when the caller sent them.
 */
export async function recordProviderTemplate(deps: AppDeps, input: z.infer<typeof providerTemplateUpsertInput>): Promise<{ template: SyncedTemplateView }> {
  if (!(await getWorkspace(deps.db, input.workspaceId))) throw new AppError('not_found', { message: 'workspace not found' });
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { synced } = await applyTemplateStatusUpdate(tx, input.workspaceId, { ...input, event: input.status }, now);
    if (!input.components && !input.parameterFormat) return { template: toSyncedTemplateView(synced) };
    const row = await upsertSyncedTemplate(
      tx,
      input.workspaceId,
      {
        ...synced,
        ...(input.components ? { components: input.components } : {}),
        ...(input.parameterFormat ? { parameterFormat: input.parameterFormat } : {}),
      },
      now,
    );
    return { template: toSyncedTemplateView(row) };
  });
}
