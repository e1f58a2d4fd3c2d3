import { z } from 'zod';
import { listApprovedTemplates, type SyncedTemplateRow } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

/**
 * Approved templates for the keyed /v1 surface: the synced copy (what the provider approved,
 * as of the last sync or status webhook), never the local library's drafts.
 * `findApprovedTemplate` is the check a send makes before it queues a template message.
 */
export { findApprovedTemplate } from '@mos/db';

export const approvedTemplateView = z
  .object({
    name: z.string(),
    language: z.string().describe('Provider locale code, e.g. en_US.'),
    category: z.string().describe('UTILITY, MARKETING or AUTHENTICATION.'),
    status: z.literal('approved'),
    components: z
      .array(z.record(z.string(), z.unknown()))
      .describe('The provider component objects (type, text, format, buttons, example ...); text may hold {{1}}-style placeholders.'),
  })
  .meta({ id: 'ApprovedTemplate' });
export type ApprovedTemplateView = z.infer<typeof approvedTemplateView>;

export const approvedTemplatesResult = z.object({ templates: z.array(approvedTemplateView) }).meta({ id: 'ListTemplatesResponse' });

export const toApprovedTemplateView = (r: SyncedTemplateRow): ApprovedTemplateView => ({
  name: r.name,
  language: r.language,
  category: r.category,
  status: 'approved',
  components: r.components as Record<string, unknown>[],
});

/** GET /v1/templates: every approved template of the workspace, by name then language. */
export async function listApprovedTemplatesForApi(deps: AppDeps, scope: Scope): Promise<z.infer<typeof approvedTemplatesResult>> {
  return { templates: (await listApprovedTemplates(deps.db, scope.workspaceId)).map(toApprovedTemplateView) };
}
