import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { JourneyScheduleActivities } from './schedule-activities';
import type { JourneyAudiencePage, JourneyScheduleTickInput, JourneyScheduleTickResult } from './contract';

const acts = proxyActivities<JourneyScheduleActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One firing of a `schedule` journey: pages through its audience, queueing a run per contact
 * (each its own `journeyRun`, started by the worker's journey starter). The tick's workflow id
 * (the schedule's id and firing time) names the trigger, so a page retried after a crash queues
 * nobody twice.
 */
export async function journeyScheduleTick(input: JourneyScheduleTickInput): Promise<JourneyScheduleTickResult> {
  const tick = workflowInfo().workflowId;
  let cursor: string | null = null;
  let queued = 0;
  let pages = 0;
  do {
    const page: JourneyAudiencePage = await acts.queueScheduledJourneyRuns({ ...input, tick, cursor });
    queued += page.queued;
    pages++;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { queued, pages };
}
