import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { ensureSchedule } from '../schedule';
import { TEMPLATE_SYNC_ALL_WORKFLOW_TYPE, TEMPLATE_SYNC_SCHEDULE_ID } from './contract';

/**
 * Creates the nightly schedule that resyncs every workspace with a provider configured, or
 * brings an existing one to these options (`ensureSchedule`). Safe to call at every worker start.
 */
export async function ensureTemplateSyncSchedule(
  client: Client,
  options: { taskQueue: string; cron?: string; scheduleId?: string },
): Promise<{ created: boolean }> {
  return ensureSchedule(client, {
    scheduleId: options.scheduleId ?? TEMPLATE_SYNC_SCHEDULE_ID,
    spec: { cronExpressions: [options.cron ?? '15 3 * * *'] },
    action: { type: 'startWorkflow', workflowType: TEMPLATE_SYNC_ALL_WORKFLOW_TYPE, taskQueue: options.taskQueue, args: [] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
  });
}
