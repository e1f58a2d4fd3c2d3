import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@mos/core';
import { listAccountEvents } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { seedWorkspace, sharedWorkflowBundle, storeDelivery, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';
import { startWorkerRuntime, type WorkerRuntime } from './worker';

/**
 * The production effects stamp times with the worker's clock, like the rest of the activity.
 * The delivery is the provider's errors-only messages value, which carries no time of its own
 * and is therefore recorded as of "now": docs/provider-reference/webhooks/messages_errors_system_level.json
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/errors).
 */
describe('the worker wires its clock into the production effects', () => {
  let tdb: TestDatabase;
  let runtime: WorkerRuntime;
  let ws: string;
  const now = new Date('2031-02-03T04:05:06Z');

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = await seedWorkspace(tdb.db);
    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      clock: fixedClock(now),
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('effects-clock') },
      relay: { pollIntervalMs: 250 },
      heartbeatIntervalMs: 1_000,
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
  }, 120_000);
  afterAll(async () => {
    await runtime?.stop();
    await tdb?.drop();
  });

  it('an untimed account event is recorded as of the worker clock', async () => {
    const body = readFileSync(new URL('../../../docs/provider-reference/webhooks/messages_errors_system_level.json', import.meta.url));
    await storeDelivery(tdb.db, ws, { body, topic: 'unknown' });
    const [row] = await waitFor(
      async () => {
        const rows = await listAccountEvents(tdb.db, ws, { limit: 1, offset: 0 });
        return rows.length > 0 ? rows : null;
      },
      { timeoutMs: 60_000, what: 'the account event' },
    );
    expect(row).toMatchObject({ field: 'messages', occurredAt: null, eventAt: now });
  });
});
