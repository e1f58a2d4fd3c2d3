import { executeChild, log, ParentClosePolicy, proxyActivities } from '@temporalio/workflow';
import type { TemplateActivities } from './activities';
import {
  TEMPLATE_SYNC_NON_RETRYABLE_TYPES,
  templateSyncWorkflowId,
  type TemplateSyncAllResult,
  type TemplateSyncInput,
  type TemplateSyncResult,
} from './contract';

// A page is one provider call plus upserts; provider outages retry with backoff for a while.
const { syncTemplatePage, listTemplateSyncWorkspaces } = proxyActivities<TemplateActivities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 20,
    nonRetryableErrorTypes: TEMPLATE_SYNC_NON_RETRYABLE_TYPES,
  },
});

/**
 * Pages through the provider's templates for one workspace and upserts each into
 * synced_templates. Ids and cursors only in history; the token stays in the activity.
 */
export async function templateSync(input: TemplateSyncInput): Promise<TemplateSyncResult> {
  const pageSize = input.pageSize ?? 100;
  let after: string | undefined;
  let pages = 0;
  let upserted = 0;
  // The guard bounds history even if a provider kept returning a "next" cursor forever.
  for (let guard = 0; guard < 1000; guard++) {
    const page = await syncTemplatePage({ workspaceId: input.workspaceId, after, pageSize });
    if (page.skipped) return { workspaceId: input.workspaceId, pages, upserted, skipped: page.skipped };
    pages++;
    upserted += page.upserted;
    if (!page.next) break;
    after = page.next;
  }
  return { workspaceId: input.workspaceId, pages, upserted };
}

/** The nightly schedule's action: one child sync per workspace with a business account. */
export async function templateSyncAll(): Promise<TemplateSyncAllResult> {
  const ids = await listTemplateSyncWorkspaces();
  for (const workspaceId of ids) {
    // Sequential: the provider rate-limits per app, and the nightly run is not in a hurry.
    await executeChild(templateSync, {
      args: [{ workspaceId }],
      workflowId: `${templateSyncWorkflowId(workspaceId)}-nightly-${Date.now()}`,
      parentClosePolicy: ParentClosePolicy.TERMINATE,
    }).catch((err: unknown) => {
      // One workspace failing (bad token, provider down) must not stop the others.
      log.warn('template sync failed for a workspace', { workspaceId, error: String(err) });
    });
  }
  return { workspaces: ids.length };
}
