import { AppError } from '@mos/core';
import { getWorkspace } from '@mos/db';
import { TEMPLATE_SYNC_WORKFLOW_TYPE, templateSyncWorkflowId, type TemplateSyncInput } from '@mos/workflows/contract';
import type { AppDeps } from '../deps';

export interface TemplateSyncStarted {
  workflowId: string;
  runId: string;
}

/** Starts `templateSync` on Temporal for one workspace. */
export type TemplateSyncStarter = (workspaceId: string) => Promise<TemplateSyncStarted>;

/** The production starter: the process's Temporal connection; a sync already running absorbs the request. */
export function temporalTemplateSyncStarter(deps: Pick<AppDeps, 'env' | 'temporal'>): TemplateSyncStarter {
  return async (workspaceId) => {
    const client = await deps.temporal.get();
    const input: TemplateSyncInput = { workspaceId };
    const handle = await client.workflow.start(TEMPLATE_SYNC_WORKFLOW_TYPE, {
      taskQueue: deps.env.TEMPORAL_TASK_QUEUE,
      workflowId: templateSyncWorkflowId(workspaceId),
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
  };
}

/**
 * Asks for a resync of a workspace's templates now (the nightly schedule does it anyway):
 * 404 for an unknown workspace, 503 when Temporal cannot take the request.
 */
export async function requestTemplateSync(
  deps: AppDeps,
  workspaceId: string,
  start: TemplateSyncStarter = temporalTemplateSyncStarter(deps),
): Promise<{ accepted: true } & TemplateSyncStarted> {
  if (!(await getWorkspace(deps.db, workspaceId))) throw new AppError('not_found', { message: 'workspace not found' });
  let started;
  try {
    started = await start(workspaceId);
  } catch (err) {
    deps.log.error({ err, workspaceId }, 'could not start template sync');
    throw new AppError('service_unavailable', { message: 'Temporal is unavailable; try again' });
  }
  return { accepted: true, ...started };
}
