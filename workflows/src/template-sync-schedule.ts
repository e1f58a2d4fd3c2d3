import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { TEMPLATE_SYNC_ALL_WORKFLOW_TYPE, TEMPLATE_SYNC_SCHEDULE_ID } from './template-sync-shared';

/**
 * Creates (or leaves in place) the nightly schedule that resyncs every workspace with a
 * provider configured. Safe to call at every worker start: an existing schedule is kept.
 */
export async function ensureTemplateSyncSchedule(
  client: Client,
  options: { taskQueue: string; cron?: string; scheduleId?: string },
): Promise<{ created: boolean }> {
  try {
    await client.schedule.create({
      scheduleId: options.scheduleId ?? TEMPLATE_SYNC_SCHEDULE_ID,
      spec: { cronExpressions: [options.cron ?? '15 3 * * *'] },
      action: { type: 'startWorkflow', workflowType: TEMPLATE_SYNC_ALL_WORKFLOW_TYPE, taskQueue: options.taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    });
    return { created: true };
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return { created: false };
    throw err;
  }
}
