import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { fixedClock, newId, normalizeEnvelope } from '@mos/core';
import { createLogger } from '@mos/config';
import { listAuditLogs, upsertWorkspace, type Db } from '@mos/db';
import { createTestDatabase, storeTestWebhook, type TestDatabase } from '@mos/db/testing';
import { applyFamily, composeEffects, createContactEffects } from '../webhook-processing/effects/index';
import { WORKFLOWS_PATH } from '../index';
import { maybeRecordHistory } from '../testing/temporal';
import { createRetentionActivities } from './activities';
import type { RetentionPurgeResult } from './contract';
import { ensureRetentionSchedules } from './schedule';

const log = createLogger({ name: 'retention-test', level: 'silent' });
const taskQueue = `test-retention-${newId('request').slice(4, 18)}`;
const DAY = 86_400_000;
const clock = fixedClock(new Date('2025-09-01T00:00:00Z'));

/** An inbound text plus a status for an outbound message, stored and applied as production does. */
async function seedAt(db: Db, workspaceId: string, n: number, at: Date): Promise<void> {
  const ts = String(at.getTime() / 1000);
  const envelope = {
    object: 'messaging_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: `Person ${n}` }, wa_id: `3933300000${n}` }],
              messages: [
                { from: `3933300000${n}`, id: `wamid.in-${workspaceId}-${n}-${ts}`, timestamp: ts, type: 'text', text: { body: `secret words ${n}` } },
              ],
              statuses: [{ id: `wamid.out-${workspaceId}-${n}-${ts}`, status: 'delivered', timestamp: ts, recipient_id: `3933300000${n}` }],
            },
          },
        ],
      },
    ],
  };
  await storeTestWebhook(db, workspaceId, { body: envelope, normalizationStatus: 'processed', receivedAt: at });
  const effects = composeEffects(createContactEffects({ log }));
  for (const family of normalizeEnvelope(envelope).events) await applyFamily(effects, db, workspaceId, family);
}

describe('retention purge (real Temporal, injectable clock)', () => {
  let tdb: TestDatabase;
  let connection: Connection;
  let client: Client;
  let worker: Worker;
  let workerConnection: NativeConnection;
  let running: Promise<void>;
  let a: string;
  let b: string;

  const state = async (workspaceId: string) => {
    const q = async (sql: string) => (await tdb.pool.query(sql, [workspaceId])).rows[0].n as number;
    return {
      withBody: await q('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND body IS NOT NULL'),
      messages: await q('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1'),
      rawBodies: await q('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1 AND raw_body IS NOT NULL'),
      statuses: await q('SELECT count(*)::int AS n FROM message_statuses WHERE workspace_id = $1'),
    };
  };
  const purge = (workspaceId: string, batchSize = 2, workflowId = `retention-test-${newId('request')}`) =>
    client.workflow.execute('retentionPurge', { taskQueue, workflowId, args: [{ workspaceId, batchSize }] }) as Promise<RetentionPurgeResult>;

  /** `MOS_RECORD_HISTORIES=1` writes the run's history for replay.test.ts. */
  const maybeRecord = (name: string, workflowId: string) => maybeRecordHistory(client, name, workflowId);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    a = (await upsertWorkspace(tdb.db, 'retention-a', { dataRetentionDays: 30 })).workspace.id;
    b = (await upsertWorkspace(tdb.db, 'retention-b')).workspace.id;
    for (const ws of [a, b]) {
      for (let n = 0; n < 5; n++) await seedAt(tdb.db, ws, n, new Date(Date.parse('2025-06-01T00:00:00Z') + n * 3600_000));
      for (let n = 5; n < 7; n++) await seedAt(tdb.db, ws, n, new Date('2025-08-20T00:00:00Z'));
    }
    connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    client = new Client({ connection, namespace: 'default' });
    worker = await Worker.create({
      connection: (workerConnection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! })),
      namespace: 'default',
      taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: createRetentionActivities({ db: tdb.db, log, clock }),
    });
    running = worker.run();
  }, 120_000);

  afterAll(async () => {
    worker?.shutdown();
    await running?.catch(() => {});
    await workerConnection?.close();
    await connection?.close();
    await tdb?.drop();
  });

  it('purges content, raw bodies and delivery rows older than the period, in batches, and audits the counts', async () => {
    expect(await state(a)).toEqual({ withBody: 7, messages: 7, rawBodies: 7, statuses: 7 });
    // A run that died after its first batch: that batch committed, and a new run finishes the rest.
    const activities = createRetentionActivities({ db: tdb.db, log, clock });
    const first = await activities.purgeRetentionBatch({ workspaceId: a, cutoff: '2025-08-02T00:00:00.000Z', batchSize: 2 });
    expect(first).toEqual({ messages: 2, webhookEvents: 2, deliveryStatuses: 2, messageVersions: 0, reactions: 0, done: false });
    expect(await state(a)).toEqual({ withBody: 5, messages: 7, rawBodies: 5, statuses: 5 });
    const workflowId = `retention-test-${newId('request')}`;
    const result = await purge(a, 2, workflowId);
    await maybeRecord('retention-purge-batches', workflowId);
    expect(result).toMatchObject({
      skipped: false,
      cutoff: '2025-08-02T00:00:00.000Z',
      batches: 2,
      counts: { messages: 3, webhookEvents: 3, deliveryStatuses: 3 },
    });
    // Rows stay (counts survive); only content older than 30 days is gone.
    expect(await state(a)).toEqual({ withBody: 2, messages: 7, rawBodies: 2, statuses: 2 });
    const old = await tdb.pool.query(`SELECT body, content_removed_at, status FROM messages WHERE workspace_id = $1 AND sent_at < '2025-08-01'`, [a]);
    expect(old.rows.every((r) => r.body === null && r.content_removed_at !== null)).toBe(true);
    const marks = await tdb.pool.query(`SELECT raw_body_redaction FROM webhook_events WHERE workspace_id = $1 AND raw_body IS NULL`, [a]);
    expect(marks.rows.map((r) => r.raw_body_redaction)).toEqual(Array(5).fill('retention'));
    // A workspace without a period is untouched.
    expect(await state(b)).toEqual({ withBody: 7, messages: 7, rawBodies: 7, statuses: 7 });

    const [entry] = await listAuditLogs(tdb.db, a, { limit: 1, action: 'retention.purge' });
    expect(entry).toMatchObject({
      actorId: 'system',
      targetId: a,
      details: { cutoff: '2025-08-02T00:00:00.000Z', days: 30, batches: 2, messages: 3, webhookEvents: 3, deliveryStatuses: 3 },
    });
  });

  it('is idempotent, and follows the clock', async () => {
    expect(await purge(a)).toMatchObject({ batches: 1, counts: { messages: 0, webhookEvents: 0, deliveryStatuses: 0 } });
    clock.advance(20 * DAY);
    expect(await purge(a, 500)).toMatchObject({ batches: 1, counts: { messages: 2, webhookEvents: 2, deliveryStatuses: 2 } });
    expect(await state(a)).toEqual({ withBody: 0, messages: 7, rawBodies: 0, statuses: 0 });
    expect(await purge(b)).toMatchObject({ skipped: true });
  });

  it('the daily sweep runs a purge per workspace with a period', async () => {
    await tdb.pool.query('UPDATE workspaces SET data_retention_days = 90 WHERE id = $1', [b]);
    // Replays run under the file name as workflow id, and the sweep names its children after
    // its own id, so a recorded sweep must have run under that name.
    const workflowId = process.env.MOS_RECORD_HISTORIES ? 'retention-sweep' : `retention-sweep-${newId('request')}`;
    const results = (await client.workflow.execute('retentionSweep', { taskQueue, workflowId, args: [] })) as RetentionPurgeResult[];
    await maybeRecord('retention-sweep', workflowId);
    const byWs = Object.fromEntries(results.map((r) => [r.workspaceId, r]));
    expect(Object.keys(byWs).sort()).toEqual([a, b].sort());
    expect(byWs[b]).toMatchObject({ counts: { messages: 5, webhookEvents: 5, deliveryStatuses: 5 } });
    expect(byWs[a]).toMatchObject({ counts: { messages: 0 } });
  });

  it('ensureRetentionSchedules creates the daily schedule once and is safe to repeat', async () => {
    const scheduleId = `test-retention-${newId('request')}`;
    try {
      expect(await ensureRetentionSchedules(client, { taskQueue, scheduleId })).toEqual({ scheduleId, created: true });
      expect(await ensureRetentionSchedules(client, { taskQueue, scheduleId, hour: 4, minute: 5 })).toEqual({ scheduleId, created: false });
      const desc = await client.schedule.getHandle(scheduleId).describe();
      expect(desc.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionSweep', taskQueue });
      expect(desc.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 4, end: 4, step: 1 }], minute: [{ start: 5, end: 5, step: 1 }] });
    } finally {
      await client.schedule
        .getHandle(scheduleId)
        .delete()
        .catch(() => {});
    }
  });
});
