import { ApplicationFailure } from '@temporalio/common';
import { mapProviderTemplateStatus, TEMPLATE_CHANGE_FIELDS, providerReason, systemClock, type Clock, type TemplateUpdatedEvent } from '@mos/core';
import {
  applyTemplateCategoryUpdate, applyTemplateComponentsUpdate, applyTemplateQualityUpdate, applyTemplateStatusUpdate, getWorkspace,
  listSyncableWorkspaceIds, recordAccountEvent, upsertSyncedTemplate, createVault, type AccountEventInput, type Db, type Vault,
} from '@mos/db';
import { resolveMasterKey, type Env, type Logger } from '@mos/config';
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


/** An ISO time from a family, or null when absent or unreadable (then ordering treats it as untimed). */
export function familyTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A change naming no template we can key (no copy with its id, no name and language): recorded, visible to operators. */
function unattachedTemplateChange(family: TemplateUpdatedEvent, at: Date | null): AccountEventInput {
  const what =
    family.change === 'status' ? `status ${family.event}`
    : family.change === 'quality' ? `quality ${family.previousScore ?? '?'} -> ${family.newScore}`
    : family.change === 'category' ? (family.correctCategory ? `category to become ${family.correctCategory}` : `category ${family.previousCategory ?? '?'} -> ${family.newCategory}`)
    : 'components edited';
  return {
    field: TEMPLATE_CHANGE_FIELDS[family.change],
    event: family.change === 'status' ? family.event : family.change,
    occurredAt: at,
    summary: `Template ${family.providerTemplateId}${family.name ? ` (${family.name}${family.language ? `, ${family.language}` : ''})` : ''}: ${what}; not in the synced list, recorded only (the next template sync adds it)`,
    value: family,
    errors: [],
    accountId: family.accountId,
    phoneNumberId: null,
    displayPhoneNumber: null,
  };
}

/**
 * The pipeline's `template.updated` effect, one query per change kind (packages/db
 * template-status.ts and synced-template-updates.ts): status moves the library out of
 * pending_approval and updates the synced copy with its detail; quality, category and
 * components update the synced copy. Each is idempotent and keeps the newest change by the
 * provider's time. A change that cannot be attached to any copy is recorded as an account
 * event instead of being lost.
 */
export function createTemplateEffects(deps: { db: Db; clock?: Clock }): Pick<FamilyEffects, 'applyTemplateUpdate'> {
  const clock = deps.clock ?? systemClock;
  return {
    async applyTemplateUpdate(workspaceId: string, family: TemplateUpdatedEvent): Promise<void> {
      const now = clock.now();
      const at = familyTime(family.occurredAt);
      const ref = { providerTemplateId: family.providerTemplateId, name: family.name, language: family.language };
      let synced: unknown;
      switch (family.change) {
        case 'status':
          ({ synced } = await applyTemplateStatusUpdate(
            deps.db,
            workspaceId,
            { ...ref, event: family.event, reason: family.reason, category: family.category, info: family.detail, occurredAt: at },
            now,
          ));
          break;
        case 'quality':
          ({ synced } = await applyTemplateQualityUpdate(deps.db, workspaceId, { ...ref, previousScore: family.previousScore, newScore: family.newScore, occurredAt: at }, now));
          break;
        case 'category':
          ({ synced } = await applyTemplateCategoryUpdate(
            deps.db,
            workspaceId,
            {
              ...ref, previousCategory: family.previousCategory, newCategory: family.newCategory, correctCategory: family.correctCategory,
              effectiveAt: familyTime(family.effectiveAt), occurredAt: at,
            },
            now,
          ));
          break;
        case 'components':
          ({ synced } = await applyTemplateComponentsUpdate(deps.db, workspaceId, { ...ref, components: family.components, occurredAt: at }, now));
          break;
      }
      if (!synced) await recordAccountEvent(deps.db, workspaceId, unattachedTemplateChange(family, at), now);
    },
  };
}
