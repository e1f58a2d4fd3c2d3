import { ApplicationFailure } from '@temporalio/common';
import { systemClock, type Clock, type TemplateUpdatedEvent } from '@mos/core';
import { mapProviderTemplateStatus, providerReason } from '@mos/core';
import { applyTemplateStatusUpdate, getWorkspace, listSyncableWorkspaceIds, upsertSyncedTemplate, type Db } from '@mos/db';
import { createVault, resolveMasterKey, type Env, type Logger, type Vault } from '@mos/config';
import { createProviderClient, isProviderError, ProviderError, type ProviderClient } from '@mos/provider';
import type { TemplateSyncPageInput, TemplateSyncPageResult } from '../template-sync-shared';
import type { FamilyEffects } from './effects';

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
      if (!ws) throw ApplicationFailure.create({ type: 'WorkspaceNotFound', message: `workspace ${input.workspaceId} not found`, nonRetryable: true });
      if (!ws.wabaId) return { upserted: 0, skipped: 'no_waba' };
      const accessToken = await deps.vault.get(deps.db, ws.id, 'provider-access-token');
      if (!accessToken) return { upserted: 0, skipped: 'no_access_token' };
      let page;
      try {
        page = await deps.provider.listTemplates({ wabaId: ws.wabaId, accessToken }, { limit: input.pageSize, after: input.after });
      } catch (err) {
        // 4xx (bad token, unknown account) will not heal by retrying; 5xx and timeouts might.
        if (isProviderError(err) && !err.retryable) {
          throw ApplicationFailure.create({ type: 'ProviderRejected', message: err.userMessage, nonRetryable: true, details: [err.error] });
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

/**
 * The production wiring for a worker process: the vault from the master key and the
 * provider client from PROVIDER_BASE_URL. Without a provider configured every sync page
 * fails non-retryably (a 4xx-style ProviderError) instead of retrying forever.
 */
export function templateActivitiesFromEnv(deps: { db: Db; log: Logger; env: Env; clock?: Clock }): TemplateActivities {
  const vault = createVault(resolveMasterKey(deps.env), deps.env);
  const provider: ProviderClient = deps.env.PROVIDER_BASE_URL
    ? createProviderClient({ baseUrl: deps.env.PROVIDER_BASE_URL, apiVersion: deps.env.PROVIDER_API_VERSION })
    : new Proxy({} as ProviderClient, {
        get: () => async () => {
          throw new ProviderError('no provider configured (PROVIDER_BASE_URL)', { status: 400, retryable: false });
        },
      });
  return createTemplateActivities({ db: deps.db, log: deps.log, vault, provider, clock: deps.clock });
}

/**
 * The pipeline's `template.updated` effect: library pending_approval -> approved/rejected
 * and the synced copy, in one transaction (idempotent; see applyTemplateStatusUpdate).
 */
export function createTemplateEffects(deps: { db: Db; clock?: Clock }): Pick<FamilyEffects, 'applyTemplateUpdate'> {
  const clock = deps.clock ?? systemClock;
  return {
    async applyTemplateUpdate(workspaceId: string, family: TemplateUpdatedEvent): Promise<void> {
      await applyTemplateStatusUpdate(
        deps.db,
        workspaceId,
        {
          providerTemplateId: family.providerTemplateId,
          name: family.name,
          language: family.language,
          event: family.event,
          reason: family.detail ? `${family.reason ?? 'REJECTED'}: ${family.detail}` : family.reason,
          category: family.category,
        },
        clock.now(),
      );
    },
  };
}
