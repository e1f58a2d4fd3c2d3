import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { ensureSchedule } from './schedule';
import { temporalAddress } from './testing/temporal';

/** ensureSchedule against the real Temporal dev server: create, then bring to new options. */
describe('ensureSchedule', () => {
  let connection: Connection;
  let client: Client;
  const created: string[] = [];
  const newId = () => {
    const id = `test-ensure-schedule-${randomBytes(5).toString('hex')}`;
    created.push(id);
    return id;
  };
  const action = (workflowType: string) => ({ type: 'startWorkflow' as const, workflowType, taskQueue: 'test-ensure-schedule', args: [] });

  beforeAll(async () => {
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, namespace: 'default' });
  });
  afterAll(async () => {
    for (const id of created)
      await client.schedule
        .getHandle(id)
        .delete()
        .catch(() => {});
    await connection?.close();
  });

  it('creates the schedule, then updates spec, action and policies of the existing one', async () => {
    const scheduleId = newId();
    const first = await ensureSchedule(client, {
      scheduleId,
      spec: { cronExpressions: ['15 3 * * *'] },
      action: action('templateSyncAll'),
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
      memo: { purpose: 'test' },
    });
    expect(first).toEqual({ created: true });
    const before = await client.schedule.getHandle(scheduleId).describe();
    expect(before.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 3 }], minute: [{ start: 15 }] });
    expect(before.policies).toMatchObject({ overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 3_600_000 });

    const second = await ensureSchedule(client, {
      scheduleId,
      spec: { calendars: [{ hour: 4, minute: 5 }] },
      action: action('retentionSweep'),
      policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '10 minutes' },
      memo: { purpose: 'ignored on update' },
    });
    expect(second).toEqual({ created: false });
    const after = await client.schedule.getHandle(scheduleId).describe();
    expect(after.spec.calendars).toHaveLength(1);
    expect(after.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 4, end: 4, step: 1 }], minute: [{ start: 5, end: 5, step: 1 }] });
    expect(after.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionSweep', taskQueue: 'test-ensure-schedule' });
    expect(after.policies).toMatchObject({ overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: 600_000 });
    // A memo is written at creation only.
    expect(after.memo).toEqual({ purpose: 'test' });
  });

  it('keeps the policies when none are given, and keeps a pause', async () => {
    const scheduleId = newId();
    await ensureSchedule(client, {
      scheduleId,
      spec: { calendars: [{ hour: 2, minute: 47 }] },
      action: action('retentionSweep'),
      policies: { catchupWindow: '1 hour' },
    });
    await client.schedule.getHandle(scheduleId).pause('operator paused it');
    expect(await ensureSchedule(client, { scheduleId, spec: { calendars: [{ hour: 1, minute: 0 }] }, action: action('retentionSweep') })).toEqual({
      created: false,
    });
    const after = await client.schedule.getHandle(scheduleId).describe();
    expect(after.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 1 }] });
    expect(after.policies.catchupWindow).toBe(3_600_000);
    expect(after.state).toMatchObject({ paused: true, note: 'operator paused it' });
  });
});
