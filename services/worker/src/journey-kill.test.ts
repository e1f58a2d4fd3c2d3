import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { getJourney, resolveContact } from '@mos/db';
import { seedJourney } from '@mos/app/testing';
import { queueJourneyRun } from '@mos/workflows';
import { JOURNEY_STATE_QUERY, type JourneyState } from '@mos/workflows/contract';
import { connectTestClient, maybeRecordHistory, seedWorkspace, uniqueTaskQueue, waitFor } from './testing';
import { spawnFixtureWorker, writeWorkflowBundle, type FixtureWorker } from './testing-fixtures/spawn';

/**
 * A worker process killed with SIGKILL while a journey run waits on its durable timer: the
 * timer lives in Temporal, so the run resumes on the next worker, and its steps' side effects
 * happen once each. `journey_kill_sends` has no unique key: a step sent twice would show.
 */
const taskQueue = uniqueTaskQueue('journey-kill');
let tdb: TestDatabase;
let ws: string;
let bundlePath: string;
let temporal: Awaited<ReturnType<typeof connectTestClient>>;

const workers: FixtureWorker[] = [];
const startWorker = (): FixtureWorker => {
  const w = spawnFixtureWorker('journey-worker', { DATABASE_URL: tdb.url, KILL_TEST_TASK_QUEUE: taskQueue, KILL_TEST_BUNDLE: bundlePath });
  workers.push(w);
  return w;
};

beforeAll(async () => {
  tdb = await createTestDatabase();
  ws = await seedWorkspace(tdb.db);
  await tdb.pool.query(`CREATE TABLE journey_kill_sends (idempotency_key text NOT NULL, template text NOT NULL)`);
  temporal = await connectTestClient();
  bundlePath = await writeWorkflowBundle('mos-journey-kill-');
}, 60_000);

afterAll(async () => {
  for (const { child } of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await temporal?.close();
  await tdb?.drop();
});

it('a journey run whose worker is killed with SIGKILL mid-wait resumes on a new worker; each step sends once', async () => {
  const journeyId = await seedJourney(tdb.db, ws, {
    steps: [
      { id: 'first', type: 'send_template', template: { name: 'hello', language: 'en' } },
      { id: 'long', type: 'wait', seconds: 4 },
      { id: 'second', type: 'send_template', template: { name: 'again', language: 'en' } },
    ],
  });
  const runId = await tdb.db.transaction(async (tx) => {
    const contact = await resolveContact(tx, ws, { phoneNumber: '+15554009999', userId: null }, { at: new Date() });
    const journey = (await getJourney(tx, ws, journeyId))!;
    return queueJourneyRun(tx, ws, { journey, contactId: contact.id, triggerType: 'api', triggerRef: 'evt_kill_test', personalization: {}, now: new Date() });
  });
  expect(runId).toMatch(/^jrr_/);

  const first = startWorker();
  await first.ready;
  const [run] = (await tdb.pool.query(`SELECT workflow_id FROM journey_runs WHERE id = $1`, [runId])).rows;
  const handle = temporal.client.workflow.getHandle(run.workflow_id);
  await waitFor(
    async () => {
      const s = await handle.query<JourneyState>(JOURNEY_STATE_QUERY).catch(() => null);
      return s?.stepId === 'long' && s.waitingFor === 'timer';
    },
    { what: 'the run to wait on its timer', timeoutMs: 30_000 },
  );
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = startWorker();
  await second.ready;
  const done = await waitFor(
    async () => (await tdb.pool.query(`SELECT status, current_step FROM journey_runs WHERE id = $1 AND status = 'completed'`, [runId])).rows[0],
    { what: 'the run to complete on the new worker', timeoutMs: 60_000, intervalMs: 200 },
  );
  expect(done).toEqual({ status: 'completed', current_step: 'second' });
  const sends = await tdb.pool.query(`SELECT idempotency_key, template, count(*)::int AS n FROM journey_kill_sends GROUP BY 1, 2 ORDER BY 2 DESC`);
  expect(sends.rows).toEqual([
    { idempotency_key: `journey:${runId}:first`, template: 'hello', n: 1 },
    { idempotency_key: `journey:${runId}:second`, template: 'again', n: 1 },
  ]);
  expect(await handle.result()).toEqual({ status: 'completed', stepsRun: 3, lastStep: 'second' });
  await maybeRecordHistory(temporal.client, 'journey-run-after-worker-kill', run.workflow_id);
  second.child.kill('SIGTERM');
}, 150_000);
