import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import {
  countOutboxJobsByStatus,
  enqueueOutboxJob,
  findOutboxJobByDedupKey,
  getWebhookDelivery,
  getWebhookEvent,
  getWebhookRejection,
  insertPendingDelivery,
  insertWebhookEvent,
  insertWebhookRejection,
  listOutboxJobs,
  listReplaysOf,
  listWebhookDeliveries,
  listWebhookEvents,
  listWebhookRejections,
  upsertWorkspace,
} from './index';

/** The ingress/operator query functions, called with workspace B on workspace A's rows. */
describe('cross-workspace isolation of the webhook query functions', () => {
  let tdb: TestDatabase;
  let a: string;
  let b: string;
  const now = new Date();

  beforeAll(async () => {
    tdb = await createTestDatabase();
    a = (await upsertWorkspace(tdb.db, 'wh-a')).workspace.id;
    b = (await upsertWorkspace(tdb.db, 'wh-b')).workspace.id;
    const base = {
      source: 'messaging',
      topic: 'messages',
      requestId: 'r',
      deliveryId: 'd',
      duplicateOfId: null,
      signatureValid: true,
      signatureError: null,
      headers: {},
      query: {},
      bodyHash: 'h',
      rawBody: Buffer.from('{}'),
      bodySize: 2,
      summary: {},
      normalizationStatus: 'pending',
      responseStatus: 200,
      receivedAt: now,
    };
    await insertWebhookEvent(tdb.db, a, { ...base, id: 'evt_a' });
    await insertWebhookEvent(tdb.db, a, { ...base, id: 'evt_a2', replayOfId: 'evt_a' });
    await enqueueOutboxJob(tdb.db, a, {
      id: 'job_a',
      jobType: 'process_webhook_event',
      dedupKey: 'delivery:messaging:d',
      payload: { webhookEventId: 'evt_a' },
      now,
    });
    await insertWebhookRejection(tdb.db, a, { id: 'rej_a', webhookEventId: 'evt_a', source: 'messaging', reason: 'mismatch', receivedAt: now });
    await insertPendingDelivery(tdb.db, a, { id: 'del_a', webhookEventId: 'evt_a', jobId: 'job_a', topic: 'messages', now });
  });
  afterAll(async () => tdb?.drop());

  it('reads see nothing of another workspace', async () => {
    expect(await getWebhookEvent(tdb.db, b, 'evt_a')).toBeUndefined();
    expect(await listWebhookEvents(tdb.db, b, { limit: 100 })).toEqual([]);
    expect(await listReplaysOf(tdb.db, b, 'evt_a')).toEqual([]);
    expect(await findOutboxJobByDedupKey(tdb.db, b, 'delivery:messaging:d')).toBeUndefined();
    expect(await listOutboxJobs(tdb.db, b, { limit: 10 })).toEqual([]);
    expect(await countOutboxJobsByStatus(tdb.db, b)).toEqual({});
    expect(await getWebhookRejection(tdb.db, b, 'rej_a')).toBeUndefined();
    expect(await listWebhookRejections(tdb.db, b, { limit: 10 })).toEqual([]);
    expect(await getWebhookDelivery(tdb.db, b, 'del_a')).toBeUndefined();
    expect(await listWebhookDeliveries(tdb.db, b, { limit: 10 })).toEqual([]);
    // ...while workspace A sees them.
    expect((await listReplaysOf(tdb.db, a, 'evt_a')).map((r) => r.id)).toEqual(['evt_a2']);
    expect(await countOutboxJobsByStatus(tdb.db, a)).toEqual({ pending: 1 });
  });

  it('dedup keys are per workspace: the same key enqueues once per workspace', async () => {
    const job = { jobType: 'process_webhook_event', dedupKey: 'delivery:messaging:d', payload: {}, now };
    expect(await enqueueOutboxJob(tdb.db, a, { ...job, id: 'job_a_again' })).toBeNull();
    expect(await enqueueOutboxJob(tdb.db, b, { ...job, id: 'job_b' })).toBe('job_b');
  });
});
