import { ScheduleAlreadyRunning, ScheduleNotFoundError } from '@temporalio/client';
import { AppError, type JourneyStatus, type JourneyTrigger } from '@mos/core';
import { activeScheduleJourneys } from '@mos/db';
import { JOURNEY_SCHEDULE_WORKFLOW_TYPE, journeyScheduleId, type JourneyScheduleTickInput } from '@mos/workflows/contract';
import type { AppDeps } from '../deps';

/**
 * A `schedule` journey's Temporal Schedule follows the journey: present (with the journey's
 * cron, UTC) while it is active, absent otherwise. Each firing starts one `journeyScheduleTick`
 * over the journey's audience; overlapping firings are skipped (Temporal's default).
 * Idempotent. Throws AppError `validation_failed` for a cron Temporal refuses and
 * `service_unavailable` when Temporal cannot be reached.
 */
export async function syncJourneySchedule(
  deps: Pick<AppDeps, 'env' | 'temporal'>,
  journey: { id: string; workspaceId: string; status: JourneyStatus; trigger: JourneyTrigger },
): Promise<void> {
  const scheduleId = journeyScheduleId(journey.id);
  let client;
  try {
    client = await deps.temporal.get();
  } catch (err) {
    throw new AppError('service_unavailable', { message: 'Temporal is unavailable: the journey schedule could not be changed', cause: err });
  }
  if (journey.status !== 'active' || journey.trigger.type !== 'schedule') {
    try {
      await client.schedule.getHandle(scheduleId).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError))
        throw new AppError('service_unavailable', { message: 'Temporal is unavailable: the journey schedule could not be removed', cause: err });
    }
    return;
  }
  const args: [JourneyScheduleTickInput] = [{ workspaceId: journey.workspaceId, journeyId: journey.id }];
  const spec = { cronExpressions: [journey.trigger.cron] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: JOURNEY_SCHEDULE_WORKFLOW_TYPE,
    taskQueue: deps.env.TEMPORAL_TASK_QUEUE,
    // Temporal appends each firing's time, so every tick has its own id.
    workflowId: `journey-tick-${journey.id}`,
    args,
  };
  try {
    try {
      await client.schedule.create({ scheduleId, spec, action });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec, action, state: { ...prev.state, paused: false } }));
    }
  } catch (err) {
    if (/invalid|cron/i.test(String((err as Error)?.message))) {
      throw new AppError('validation_failed', {
        message: 'Temporal refused the cron expression',
        issues: [{ path: 'trigger.cron', message: 'not a valid cron expression' }],
      });
    }
    throw new AppError('service_unavailable', { message: 'Temporal is unavailable: the journey schedule could not be set', cause: err });
  }
}

/** The worker's start-up safety net: every active schedule journey has its schedule (a change that met a Temporal outage). */
export async function reconcileJourneySchedules(deps: Pick<AppDeps, 'db' | 'env' | 'temporal' | 'log'>): Promise<number> {
  const journeys = await activeScheduleJourneys(deps.db);
  for (const j of journeys) {
    await syncJourneySchedule(deps, j).catch((err: unknown) => deps.log.warn({ err, journeyId: j.id }, 'journey schedule could not be reconciled'));
  }
  return journeys.length;
}
