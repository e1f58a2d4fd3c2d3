import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { loadEnv, type Env } from '@mos/config';
import { lazyTemporalClient, type LazyTemporalClient } from '@mos/app';
import { outboxJobs } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { WEBHOOK_SEARCH_ATTRIBUTES } from '@mos/workflows';
import { startWorkerRuntime, type WorkerRuntime } from './worker';
import { setupTemporalNamespace } from './temporal-setup';
import { fixtureBody, seedWorkspace, sharedWorkflowBundle, storeDelivery, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';

/**
 * Temporal connection from the standard environment (issue 15), against the real dev server: a
 * namespace of its own, set up by `pnpm temporal:setup`, and the worker runtime and the app's
 * client running there because TEMPORAL_NAMESPACE says so.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}
/** Runs an entry point as `pnpm` would, with `env` over this process's (undefined removes a variable). */
async function runEntry(entry: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const merged = Object.fromEntries(Object.entries({ ...process.env, LOG_LEVEL: 'warn', ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const started = Date.now();
  try {
    const { stdout, stderr } = await exec(TSX, [join(ROOT, entry), ...args], { cwd: ROOT, env: merged, timeout: 90_000 });
    return { code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    if (e.killed) throw new Error(`${entry} did not finish within 90 s (hung)`);
    return { code: Number(e.code ?? 1), stdout: e.stdout ?? '', stderr: e.stderr ?? '', ms: Date.now() - started };
  }
}
const setup = (args: string[], env: Record<string, string | undefined> = {}) => runEntry('services/worker/src/temporal-setup-cli.ts', args, env);

const uniqueNamespace = (what: string) => `mos-${what}-${randomBytes(4).toString('hex')}`;
const REQUIRED = WEBHOOK_SEARCH_ATTRIBUTES.map((k) => k.name).sort();
/** IndexedValueType numbers: KEYWORD 2, KEYWORD_LIST 7. */
const TYPES = { WorkspaceId: 2, Topic: 2, WebhookEventId: 2, WebhookEventIds: 7, WorkspaceIds: 7, Topics: 7 };

async function searchAttributesOf(client: LazyTemporalClient, namespace: string) {
  const { customAttributes } = await (await client.get()).connection.operatorService.listSearchAttributes({ namespace });
  return customAttributes ?? {};
}

let namespace: string;
let env: Env;
let operator: LazyTemporalClient;

beforeAll(async () => {
  // Made the way an operator makes one on a self-hosted cluster.
  namespace = uniqueNamespace('ns');
  await exec(process.env.TEMPORAL_CLI ?? 'temporal', [
    'operator',
    'namespace',
    'create',
    '--address',
    temporalAddress(),
    '-n',
    namespace,
    '--retention',
    '24h',
  ]);
  env = loadEnv({ ...process.env, MOS_ENV: 'test', TEMPORAL_NAMESPACE: namespace });
  operator = lazyTemporalClient(env.temporal);
}, 30_000);
afterAll(async () => operator?.close());

describe('pnpm temporal:setup', () => {
  it('registers every search attribute mos uses on TEMPORAL_NAMESPACE, with its type; a second run changes nothing', async () => {
    expect(Object.keys(await searchAttributesOf(operator, namespace)).filter((n) => REQUIRED.includes(n))).toEqual([]);
    const first = await setup(['--json'], { TEMPORAL_NAMESPACE: namespace });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ namespace, namespaceCreated: false, required: WEBHOOK_SEARCH_ATTRIBUTES.map((k) => k.name) });
    expect(JSON.parse(first.stdout).added.sort()).toEqual(REQUIRED);
    expect(await searchAttributesOf(operator, namespace)).toMatchObject(TYPES);

    const again = await setup([], { TEMPORAL_NAMESPACE: namespace });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`search attributes on ${namespace} at ${temporalAddress()}: all present`);
  }, 120_000);

  it('--create-namespace makes a fresh namespace first (--namespace wins over TEMPORAL_NAMESPACE), then registers', async () => {
    const fresh = uniqueNamespace('fresh');
    const first = await setup(['--namespace', fresh, '--create-namespace', '--retention-days', '1', '--json'], { TEMPORAL_NAMESPACE: namespace });
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({ namespace: fresh, namespaceCreated: true });
    expect(result.added.sort()).toEqual(REQUIRED);
    expect(await searchAttributesOf(operator, fresh)).toMatchObject(TYPES);
    // Again, in process (what the command runs): nothing left to do.
    const onFresh = new Client({ connection: (await operator.get()).connection, namespace: fresh });
    const again = await setupTemporalNamespace(onFresh, { createNamespace: { retentionDays: 1 } });
    expect(again).toMatchObject({ namespace: fresh, namespaceCreated: false, added: [] });
  }, 120_000);

  it('a configuration error exits 2 before connecting, naming the variable', async () => {
    const badCert = await setup([], { TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem', TEMPORAL_TLS_CLIENT_KEY_PATH: '/nonexistent/client.key' });
    expect(badCert.code).toBe(2);
    expect(badCert.stderr).toContain('TEMPORAL_TLS_CLIENT_CERT_PATH: no such file: /nonexistent/client.pem');
  }, 60_000);
});

describe('TEMPORAL_NAMESPACE', () => {
  let tdb: TestDatabase;
  let runtime: WorkerRuntime | undefined;

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await runtime?.stop();
    await tdb?.drop();
  });

  it('the worker runtime and the app client run workflows in the namespace the environment names, not in default', async () => {
    // The batch run sets search attributes: the namespace must have them (idempotent if the setup tests ran).
    await setupTemporalNamespace(await operator.get());
    const ws = await seedWorkspace(tdb.db);
    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      temporal: { ...env.temporal, taskQueue: uniqueTaskQueue('namespace') },
      relay: { pollIntervalMs: 200 },
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
    const { jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('status-delivered'), topic: 'message_status' });
    const job = await waitFor(
      async () => {
        const [row] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, jobId));
        return row?.status === 'completed' || row?.status === 'failed' ? row : null;
      },
      { timeoutMs: 60_000, what: 'the batch run in the test namespace' },
    );
    expect(job.status).toBe('completed');

    // Found through the app's client for the environment's namespace...
    const handle = (await operator.get()).workflow.getHandle(job.workflowId!);
    await handle.result();
    const described = await handle.describe();
    expect(described).toMatchObject({ type: 'processWebhookBatch', status: { name: 'COMPLETED' } });
    // ...and absent from the default namespace.
    const inDefault = lazyTemporalClient({ ...env.temporal, namespace: 'default' });
    try {
      await expect((await inDefault.get()).workflow.getHandle(job.workflowId!).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    } finally {
      await inDefault.close();
    }
  }, 120_000);
});

describe('TLS misconfiguration', () => {
  it('the worker process stops at start with the variable named, exit 2, instead of waiting on Temporal', async () => {
    const run = await runEntry('services/worker/src/main.ts', [], {
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem',
      TEMPORAL_TLS_CLIENT_KEY_PATH: '/nonexistent/client.key',
      WORKER_METRICS_PORT: '0',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid configuration:');
    expect(run.stderr).toContain('TEMPORAL_TLS_CLIENT_CERT_PATH: no such file: /nonexistent/client.pem');
    expect(run.ms).toBeLessThan(30_000);
  }, 60_000);

  it('TLS towards a plaintext server fails within the connect timeout, not a hang', async () => {
    const run = await setup([], { TEMPORAL_TLS: 'true' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/temporal:setup: default at .*: Failed to connect before the deadline/);
    expect(run.ms).toBeLessThan(45_000);
  }, 60_000);
});
