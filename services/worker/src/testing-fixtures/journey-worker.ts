/**
 * A worker process for the journey SIGKILL test (journey-kill.test.ts): the real runtime (relay,
 * journey starter, the journeyRun workflow and its real activities) whose `sendTemplate`
 * appends one row per call to `journey_kill_sends` (no unique key: a step sent twice shows as
 * two rows) instead of queueing a message. It prints `ready` once polling.
 */
import { sql } from 'drizzle-orm';
import { createLogger } from '@mos/config';
import { createDatabase } from '@mos/db';
import { createJourneyActivities } from '@mos/workflows';
import { startWorkerRuntime } from '../worker';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const log = createLogger({ name: 'journey-worker', level: 'warn' });
const { db } = createDatabase(env('DATABASE_URL'));

await startWorkerRuntime({
  db,
  databaseUrl: env('DATABASE_URL'),
  log,
  temporal: { address: env('TEMPORAL_ADDRESS'), namespace: 'default', taskQueue: env('KILL_TEST_TASK_QUEUE') },
  relay: { pollIntervalMs: 200 },
  journeyStarter: { pollIntervalMs: 100 },
  heartbeatIntervalMs: 1_000,
  worker: { workflowBundle: { codePath: env('KILL_TEST_BUNDLE') } },
  extraActivities: createJourneyActivities({
    db,
    log,
    sendTemplate: async (_workspaceId, request, key) => {
      await db.execute(sql`INSERT INTO journey_kill_sends (idempotency_key, template) VALUES (${key}, ${request.template.name})`);
      process.stdout.write(`sent ${key}\n`);
      return { messageId: key };
    },
  }),
});
process.stdout.write('ready\n');
