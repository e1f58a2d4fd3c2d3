import type { Client } from '@temporalio/client';
import { ensureSchedule } from '../schedule';
import { RETENTION_SCHEDULE_ID, RETENTION_SWEEP } from './contract';

export interface RetentionScheduleOptions {
  taskQueue: string;
  scheduleId?: string;
  /** UTC time of the daily run (default 02:47: off the hour, and before the 03:15 template sync). */
  hour?: number;
  minute?: number;
}

/**
 * Creates the daily retention schedule, or brings an existing one to these options
 * (`ensureSchedule`). Safe to call at every worker start. Overlap policy is Temporal's default
 * SKIP: a sweep still running tomorrow is not doubled.
 */
export async function ensureRetentionSchedules(client: Client, opts: RetentionScheduleOptions): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = opts.scheduleId ?? RETENTION_SCHEDULE_ID;
  const { created } = await ensureSchedule(client, {
    scheduleId,
    spec: { calendars: [{ hour: opts.hour ?? 2, minute: opts.minute ?? 47 }] },
    action: { type: 'startWorkflow', workflowType: RETENTION_SWEEP, taskQueue: opts.taskQueue, args: [] },
    memo: { purpose: 'data retention' },
  });
  return { scheduleId, created };
}
