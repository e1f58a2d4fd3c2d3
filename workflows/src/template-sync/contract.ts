/**
 * The template-sync contract: names and types shared by its workflows, its activities, its
 * schedule and the processes that start a sync. Constants and types only: no imports, no I/O.
 */
export const TEMPLATE_SYNC_WORKFLOW_TYPE = 'templateSync';
export const TEMPLATE_SYNC_ALL_WORKFLOW_TYPE = 'templateSyncAll';
export const TEMPLATE_SYNC_SCHEDULE_ID = 'template-sync-nightly';

/** One sync per workspace at a time: a second request joins the running one. */
export function templateSyncWorkflowId(workspaceId: string): string {
  return `template-sync-${workspaceId}`;
}

/**
 * Why a sync page failed for good. One string enum, like `WebhookFailureType`: the activity
 * throws `ApplicationFailure.create({type, nonRetryable: true})` with these, and the run
 * fails with an ActivityFailure whose cause carries the type.
 */
export enum TemplateSyncFailureType {
  /** The workspace the sync was started for does not exist. */
  WorkspaceNotFound = 'WorkspaceNotFound',
  /** The provider refused the call with a 4xx (bad token, unknown account) or no provider is configured. */
  ProviderRejected = 'ProviderRejected',
}

export const TEMPLATE_SYNC_NON_RETRYABLE_TYPES: string[] = [TemplateSyncFailureType.WorkspaceNotFound, TemplateSyncFailureType.ProviderRejected];

/** Why nothing ran, when nothing did: the workspace has no business account or no access token. */
export type TemplateSyncSkipReason = 'no_waba' | 'no_access_token';

export interface TemplateSyncInput {
  workspaceId: string;
  /** Provider page size; the provider's default is 100. */
  pageSize?: number;
}

export interface TemplateSyncResult {
  workspaceId: string;
  pages: number;
  upserted: number;
  skipped?: TemplateSyncSkipReason;
}

export interface TemplateSyncPageInput {
  workspaceId: string;
  after?: string;
  pageSize: number;
}

export interface TemplateSyncPageResult {
  upserted: number;
  /** The cursor of the next page, absent on the last page. */
  next?: string;
  skipped?: TemplateSyncSkipReason;
}

export interface TemplateSyncAllResult {
  workspaces: number;
}
