import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { connectTestClient, fixtureBody, maybeRecordHistory, seedWorkspace, storeDelivery, uniqueTaskQueue, waitFor } from './testing';
import { spawnFixtureWorker, writeWorkflowBundle, type FixtureWorker } from './testing-fixtures/spawn';

/**
 * A worker process killed with SIGKILL in the middle of a batch (its apply transaction open,
 * some webhooks applied inside it) loses nothing and repeats nothing: PostgreSQL rolls the
 * open transaction back, the batch run's local activity runs again on the restarted worker,
 * and every webhook's effect is applied exactly once. `kill_test_effects` has no unique key,
 * so an effect applied twice would show as two rows.
 */
const taskQueue = uniqueTaskQueue('kill');
const WEBHOOKS = 12;
let tdb: TestDatabase;
let ws: string;
let bundlePath: string;
let temporal: Awaited<ReturnType<typeof connectTestClient>>;

const workers: FixtureWorker[] = [];
function startWorker(): FixtureWorker {
  const w = spawnFixtureWorker('killable-worker', {
    DATABASE_URL: tdb.url,
    KILL_TEST_TASK_QUEUE: taskQueue,
    KILL_TEST_BUNDLE: bundlePath,
    KILL_TEST_LINGER_MS: '150',
  });
  workers.push(w);
  return w;
}
/** The fixture prints `applying <wamid>` as each effect starts. */
const applying = (w: FixtureWorker) => w.lines.filter((l) => l.startsWith('applying '));

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = await seedWorkspace(tdb.db);
  await tdb.pool.query(`CREATE TABLE kill_test_effects (provider_message_id text NOT NULL)`);
  temporal = await connectTestClient();
  bundlePath = await writeWorkflowBundle('mos-kill-');
}, 60_000);

afterAll(async () => {
  for (const { child } of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await temporal?.close();
  await tdb?.drop();
});

it('a worker killed with SIGKILL mid-batch is restarted and every webhook is applied exactly once', async () => {
  // The backlog exists before any worker runs, so the first claim takes it as one batch.
  const body = fixtureBody('inbound-text').toString();
  const wamids = Array.from({ length: WEBHOOKS }, (_, i) => `wamid.kill-${i}`);
  const stored = [];
  for (const wamid of wamids) stored.push(await storeDelivery(tdb.db, ws, { body: body.replace(/"id": "wamid\.[^"]+"/, `"id": "${wamid}"`) }));

  const first = startWorker();
  await first.ready;
  // Mid-batch: several effects have run inside the batch's open transaction.
  await waitFor(async () => applying(first).length >= 3, { what: 'the batch to be half applied', timeoutMs: 30_000 });
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const committedBeforeKill = (await tdb.pool.query(`SELECT count(*)::int AS n FROM kill_test_effects`)).rows[0].n as number;

  const second = startWorker();
  await second.ready;
  await waitFor(
    async () =>
      (await tdb.pool.query(`SELECT count(*)::int AS n FROM outbox_jobs WHERE workspace_id = $1 AND status = 'completed'`, [ws])).rows[0].n === WEBHOOKS,
    { what: 'every job to complete after the restart', timeoutMs: 90_000, intervalMs: 200 },
  );

  const effects = await tdb.pool.query<{ provider_message_id: string; n: number }>(
    `SELECT provider_message_id, count(*)::int AS n FROM kill_test_effects GROUP BY 1 ORDER BY 1`,
  );
  expect(effects.rows).toEqual(
    wamids.map((w) => ({ provider_message_id: w, n: 1 })).sort((a, b) => a.provider_message_id.localeCompare(b.provider_message_id)),
  );
  const messages = await tdb.pool.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1`, [ws]);
  expect(messages.rows[0].n).toBe(WEBHOOKS);
  const deliveries = await tdb.pool.query<{ job_id: string; status: string }>(`SELECT job_id, status FROM webhook_deliveries WHERE workspace_id = $1`, [ws]);
  expect(deliveries.rows.map((d) => d.job_id).sort()).toEqual(stored.map((s) => s.jobId).sort());
  expect(new Set(deliveries.rows.map((d) => d.status))).toEqual(new Set(['processed']));
  // The killed worker's open transaction counted for nothing: rolled back, not half kept
  // (twelve 150 ms effects fit in one call's 2 s budget, so nothing had committed yet).
  expect(committedBeforeKill).toBe(0);
  const batchIds = (await tdb.pool.query<{ batch_id: string }>(`SELECT DISTINCT batch_id FROM outbox_jobs WHERE workspace_id = $1`, [ws])).rows.map(
    (r) => r.batch_id,
  );
  await maybeRecordHistory(temporal.client, 'batch-after-worker-kill', `webhook-batch-${batchIds.sort()[0]}`);
  second.child.kill('SIGTERM');
}, 150_000);
