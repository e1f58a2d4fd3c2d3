/**
 * A worker process for the SIGKILL test (worker-kill.test.ts): the real runtime (relay,
 * batch runs, real contact effects) whose inbound effect also appends one row per application
 * to `kill_test_effects` (a table with no unique key, so a second application shows as a
 * second row) and then lingers, so a batch is still open when the test kills the process.
 * It prints `applying <wamid>` as each effect starts.
 */
import { sql } from 'drizzle-orm';
import { createLogger } from '@mos/config';
import { createDatabase } from '@mos/db';
import { composeEffects, createContactEffects } from '@mos/workflows';
import { startWorkerRuntime } from '../worker';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const log = createLogger({ name: 'killable-worker', level: 'warn' });
const { db } = createDatabase(env('DATABASE_URL'));
const contacts = createContactEffects({ log });
const lingerMs = Number(process.env.KILL_TEST_LINGER_MS ?? '150');

await startWorkerRuntime({
  db,
  databaseUrl: env('DATABASE_URL'),
  log,
  temporal: { address: env('TEMPORAL_ADDRESS'), namespace: 'default', taskQueue: env('KILL_TEST_TASK_QUEUE') },
  effects: composeEffects(contacts, {
    applyInbound: async (tx, workspaceId, family) => {
      process.stdout.write(`applying ${family.providerMessageId}\n`);
      await tx.execute(sql`INSERT INTO kill_test_effects (provider_message_id) VALUES (${family.providerMessageId})`);
      await new Promise((r) => setTimeout(r, lingerMs));
      await contacts.applyInbound(tx, workspaceId, family);
    },
  }),
  relay: { pollIntervalMs: 200, staleAfterMs: 2_000 },
  heartbeatIntervalMs: 1_000,
  worker: process.env.KILL_TEST_BUNDLE ? { workflowBundle: { codePath: process.env.KILL_TEST_BUNDLE } } : {},
});
process.stdout.write('ready\n');
