import { ApplicationFailure } from '@temporalio/common';
import { mapProviderTemplateStatus, providerReason, systemClock, type Clock } from '@mos/core';
import { getWorkspace, listSyncableWorkspaceIds, upsertSyncedTemplate, type Db, type Vault } from '@mos/db';
import type { Logger } from '@mos/config';
import { isProviderError, type ProviderClient } from '@mos/provider';
import { TemplateSyncFailureType, type TemplateSyncPageInput, type TemplateSyncPageResult } from './contract';

/**
 * What the activities need; a worker passes its AppDeps' vault and provider client
 * (`providerClientFromEnv`: without PROVIDER_BASE_URL every call is refused non-retryably, so
 * each sync page fails as ProviderRejected instead of retrying forever).
 */
export interface TemplateActivityDeps {
  db: Db;
  log: Logger;
  vault: Vault;
  provider: ProviderClient;
  clock?: Clock;
}

/**
 * Template sync activities. The access token is read from the vault inside the activity so
 * it never enters workflow history. Each page is upserted idempotently, so a retried page
 * (or a whole re-run) converges on the same rows.
 */
export function createTemplateActivities(deps: TemplateActivityDeps) {
  const clock = deps.clock ?? systemClock;
  return {
    async syncTemplatePage(input: TemplateSyncPageInput): Promise<TemplateSyncPageResult> {
      const ws = await getWorkspace(deps.db, input.workspaceId);
      if (!ws)
        throw ApplicationFailure.create({
          type: TemplateSyncFailureType.WorkspaceNotFound,
          message: `workspace ${input.workspaceId} not found`,
          nonRetryable: true,
        });
      if (!ws.wabaId) return { upserted: 0, skipped: 'no_waba' };
      const accessToken = await deps.vault.get(deps.db, ws.id, 'provider-access-token');
      if (!accessToken) return { upserted: 0, skipped: 'no_access_token' };
      let page;
      try {
        page = await deps.provider.listTemplates({ wabaId: ws.wabaId, accessToken }, { limit: input.pageSize, after: input.after });
      } catch (err) {
        // 4xx (bad token, unknown account) will not heal by retrying; 5xx and timeouts might.
        if (isProviderError(err) && !err.retryable) {
          throw ApplicationFailure.create({
            type: TemplateSyncFailureType.ProviderRejected,
            message: err.userMessage,
            nonRetryable: true,
            details: [err.error],
          });
        }
        throw err;
      }
      const now = clock.now();
      for (const t of page.data) {
        await upsertSyncedTemplate(
          deps.db,
          ws.id,
          {
            providerTemplateId: t.id,
            name: t.name,
            language: t.language,
            category: t.category,
            status: mapProviderTemplateStatus(t.status),
            parameterFormat: t.parameter_format ?? null,
            components: t.components,
            rejectionReason: mapProviderTemplateStatus(t.status) === 'rejected' ? providerReason(t.rejected_reason) : null,
          },
          now,
        );
      }
      deps.log.info({ workspaceId: ws.id, count: page.data.length }, 'template sync page stored');
      const next = page.paging?.next ? page.paging.cursors?.after : undefined;
      return next && page.data.length > 0 ? { upserted: page.data.length, next } : { upserted: page.data.length };
    },

    /** Workspaces with a business account: the nightly resync's fan-out list. */
    async listTemplateSyncWorkspaces(): Promise<string[]> {
      return listSyncableWorkspaceIds(deps.db);
    },
  };
}

export type TemplateActivities = ReturnType<typeof createTemplateActivities>;
