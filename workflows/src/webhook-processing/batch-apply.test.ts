import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, systemClock } from '@mos/core';
import { createLogger } from '@mos/config';
import { getMessageByProviderId, getOutboxJob, listMessageStatuses, upsertWorkspace } from '@mos/db';
import { createTestDatabase, storeTestWebhookJob, type TestDatabase } from '@mos/db/testing';
import { createApplyWebhookBatch } from './activities';
import type { ApplyWebhookBatchResult, WebhookBatchJob } from './contract';
import { createContactEffects } from './effects/contacts';
import { composeEffects, type FamilyEffects } from './effects/family-effects';

/**
 * The batch apply (the batch run's local activity) against a real database with the real
 * contact effects: one webhook per savepoint, so a poison webhook is rolled back alone, a
 * retried batch skips what it applied, and webhooks apply in the order the batch lists them.
 */
const FIXTURES = new URL('../../../packages/core/src/webhooks/fixtures/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8');
const STATUS_WAMID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';
const ECHO_WAMID = 'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA';
const INBOUND_WAMID = /"id": "wamid\.[^"]+"/;

const log = createLogger({ name: 'batch-apply-test', level: 'silent' });
let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.drop());

async function workspace(): Promise<string> {
  return (await upsertWorkspace(tdb.db, `ba-${randomBytes(5).toString('hex')}`)).workspace.id;
}

async function store(workspaceId: string, body: string): Promise<WebhookBatchJob> {
  const { webhookEventId, jobId } = await storeTestWebhookJob(tdb.db, workspaceId, { body });
  return { workspaceId, webhookEventId, jobId, deliveryId: newId('delivery') };
}

const inbound = (wamid: string) => fixture('inbound-text').replace(INBOUND_WAMID, `"id": "${wamid}"`);
const statusOf = (name: 'status-sent' | 'status-delivered' | 'status-read', wamid: string) => fixture(name).replaceAll(STATUS_WAMID, wamid);
const echo = (wamid: string) => readFileSync(new URL('provider-docs/smb_message_echoes_text.json', FIXTURES), 'utf8').replaceAll(ECHO_WAMID, wamid);

function applier(effects: FamilyEffects, budgetMs?: number) {
  const apply = createApplyWebhookBatch({ db: tdb.db, log, clock: systemClock, effects }, budgetMs === undefined ? {} : { budgetMs });
  return (jobs: WebhookBatchJob[]): Promise<ApplyWebhookBatchResult> => new MockActivityEnvironment().run(apply, { batchId: jobs[0]!.jobId, jobs });
}

const outcomesOf = (r: ApplyWebhookBatchResult) => r.outcomes.map((o) => o.outcome);
const messageCount = async (ws: string, wamid: string) =>
  (await tdb.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND provider_message_id = $2`, [ws, wamid])).rows[0]!.n;

describe('applyWebhookBatch', () => {
  it('rolls a poison webhook back alone: the others are applied and recorded, the poison one leaves no write', async () => {
    const ws = await workspace();
    const contacts = createContactEffects({ log });
    // The poison webhook's effect writes its message, then throws: the savepoint must undo the write.
    const effects = composeEffects(contacts, {
      applyInbound: async (db, w, family) => {
        await contacts.applyInbound(db, w, family);
        if (family.providerMessageId === 'wamid.poison') throw new Error('boom after writing');
      },
    });
    const jobs = [await store(ws, inbound('wamid.first')), await store(ws, inbound('wamid.poison')), await store(ws, inbound('wamid.third'))];
    const apply = applier(effects);

    const first = await apply(jobs);
    expect(outcomesOf(first)).toEqual(['applied', 'failed', 'applied']);
    expect(first.outcomes[1]).toMatchObject({ type: 'EffectFailed', message: 'applying a message.inbound family failed: Error thrown', topic: 'messages' });
    expect(await messageCount(ws, 'wamid.first')).toBe(1);
    expect(await messageCount(ws, 'wamid.poison')).toBe(0);
    expect(await messageCount(ws, 'wamid.third')).toBe(1);
    const statuses = await Promise.all(jobs.map(async (j) => (await getOutboxJob(tdb.db, ws, j.jobId))?.status));
    // The poison job waits for the workflow to hand it to its own run.
    expect(statuses).toEqual(['completed', 'pending', 'completed']);
    const deliveries = await tdb.pool.query<{ job_id: string; status: string }>(`SELECT job_id, status FROM webhook_deliveries WHERE workspace_id = $1`, [ws]);
    expect(deliveries.rows.map((d) => d.job_id).sort()).toEqual([jobs[0]!.jobId, jobs[2]!.jobId].sort());

    // The same batch again (a retried call after a crash): nothing applied twice.
    const again = await apply(jobs);
    expect(outcomesOf(again)).toEqual(['already_applied', 'failed', 'already_applied']);
    expect(await messageCount(ws, 'wamid.first')).toBe(1);
    expect(await messageCount(ws, 'wamid.third')).toBe(1);
    expect((await tdb.pool.query(`SELECT 1 FROM webhook_deliveries WHERE workspace_id = $1`, [ws])).rowCount).toBe(2);
  });

  it('stops starting webhooks after its time budget and reports the rest not attempted', async () => {
    const ws = await workspace();
    const jobs = [await store(ws, inbound('wamid.b1')), await store(ws, inbound('wamid.b2')), await store(ws, inbound('wamid.b3'))];
    const result = await applier(composeEffects(createContactEffects({ log })), 0)(jobs);
    // Always at least one, so a batch makes progress whatever the budget.
    expect(outcomesOf(result)).toEqual(['applied', 'not_attempted', 'not_attempted']);
    expect(await messageCount(ws, 'wamid.b2')).toBe(0);
  });

  it('applies a message and its statuses in batch order: the message first, then sent, delivered, read', async () => {
    const ws = await workspace();
    const wamid = `wamid.order-${randomBytes(4).toString('hex')}`;
    const jobs = [
      await store(ws, echo(wamid)),
      await store(ws, statusOf('status-sent', wamid)),
      await store(ws, statusOf('status-delivered', wamid)),
      await store(ws, statusOf('status-read', wamid)),
    ];
    expect(outcomesOf(await applier(composeEffects(createContactEffects({ log })))(jobs))).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect((await getMessageByProviderId(tdb.db, ws, wamid))?.status).toBe('read');
    expect((await listMessageStatuses(tdb.db, ws, wamid)).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('a status applied before its message (an earlier batch) is folded in when the message arrives', async () => {
    const ws = await workspace();
    const wamid = `wamid.early-${randomBytes(4).toString('hex')}`;
    const apply = applier(composeEffects(createContactEffects({ log })));
    expect(outcomesOf(await apply([await store(ws, statusOf('status-delivered', wamid))]))).toEqual(['applied']);
    expect(await getMessageByProviderId(tdb.db, ws, wamid)).toBeUndefined();
    expect(outcomesOf(await apply([await store(ws, echo(wamid))]))).toEqual(['applied']);
    expect((await getMessageByProviderId(tdb.db, ws, wamid))?.status).toBe('delivered');
  });

  it('links each applied event to the run that applied it', async () => {
    const ws = await workspace();
    const [job] = [await store(ws, inbound('wamid.linked'))];
    await applier(composeEffects(createContactEffects({ log })))([job!]);
    const row = (await tdb.pool.query(`SELECT workflow_id, run_id, normalization_status FROM webhook_events WHERE id = $1`, [job!.webhookEventId])).rows[0];
    // MockActivityEnvironment's default run ('test' / the zero run id).
    expect(row).toEqual({ workflow_id: 'test', run_id: '00000000-0000-0000-0000-000000000000', normalization_status: 'processed' });
  });
});
