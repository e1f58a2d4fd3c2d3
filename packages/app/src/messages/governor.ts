import { claimGovernorWake } from '@mos/db';
import { GOVERNOR_WAKE_SIGNAL, SEND_GOVERNOR_WORKFLOW_TYPE, sendGovernorWorkflowId, type SendGovernorInput } from '@mos/workflows/contract';
import type { AppDeps } from '../deps';

/**
 * Starts or wakes a business number's governor: a signal-with-start, so a running governor
 * gets a wake and a finished one starts again.
 */
export async function signalGovernor(deps: Pick<AppDeps, 'env' | 'temporal'>, workspaceId: string, phoneNumberId: string): Promise<void> {
  const client = await deps.temporal.get();
  const input: SendGovernorInput = { workspaceId, phoneNumberId };
  await client.workflow.signalWithStart(SEND_GOVERNOR_WORKFLOW_TYPE, {
    taskQueue: deps.env.TEMPORAL_TASK_QUEUE,
    workflowId: sendGovernorWorkflowId(workspaceId, phoneNumberId),
    args: [input],
    signal: GOVERNOR_WAKE_SIGNAL,
    signalArgs: [],
  });
}

/**
 * After messages were committed: wakes the governor only when it is idle (or has never run),
 * so a busy number costs no Temporal call per message. A Temporal outage is logged, not
 * thrown: the message is stored and the worker's sweep wakes the governor once Temporal is back.
 */
export async function wakeGovernor(deps: Pick<AppDeps, 'db' | 'env' | 'temporal' | 'log'>, workspaceId: string, phoneNumberId: string): Promise<void> {
  if (!(await claimGovernorWake(deps.db, workspaceId, phoneNumberId))) return;
  try {
    await signalGovernor(deps, workspaceId, phoneNumberId);
  } catch (err) {
    deps.log.warn({ err, workspaceId, phoneNumberId }, 'could not wake the send governor; the sweep will');
  }
}
