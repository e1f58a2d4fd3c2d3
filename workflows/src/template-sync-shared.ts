/** Names shared by the template-sync workflows, their activities and their starters (no I/O). */
export const TEMPLATE_SYNC_WORKFLOW_TYPE = 'templateSync';
export const TEMPLATE_SYNC_ALL_WORKFLOW_TYPE = 'templateSyncAll';
export const TEMPLATE_SYNC_SCHEDULE_ID = 'template-sync-nightly';

/** One sync per workspace at a time: a second request joins the running one. */
export function templateSyncWorkflowId(workspaceId: string): string {
  return `template-sync-${workspaceId}`;
}

export interface TemplateSyncInput {
  workspaceId: string;
  /** Provider page size; the provider's default is 100. */
  pageSize?: number;
}

export interface TemplateSyncResult {
  workspaceId: string;
  pages: number;
  upserted: number;
  /** Why nothing ran, when nothing did (no business account or token configured). */
  skipped?: 'no_waba' | 'no_access_token';
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
  skipped?: 'no_waba' | 'no_access_token';
}
