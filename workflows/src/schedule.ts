import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';

export type EnsureScheduleOptions = Pick<ScheduleOptions, 'scheduleId' | 'spec' | 'action' | 'policies' | 'memo'>;

/**
 * Creates a schedule, or brings an existing one to these options: spec and action are
 * replaced, and so are the policies when given (unset fields take Temporal's defaults; without
 * `policies` the existing ones stay). The memo is written at creation only (a schedule's memo
 * cannot be updated), and the schedule's state is kept, so one an operator paused stays
 * paused. Idempotent: every worker start calls it for each of its schedules.
 */
export async function ensureSchedule(client: Client, options: EnsureScheduleOptions): Promise<{ created: boolean }> {
  const { scheduleId, spec, action, policies, memo } = options;
  try {
    await client.schedule.create({ scheduleId, spec, action, ...(policies ? { policies } : {}), ...(memo ? { memo } : {}) });
    return { created: true };
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec, action, ...(policies ? { policies } : {}) }));
  return { created: false };
}
