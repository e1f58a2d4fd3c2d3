/**
 * One scenario's stack: a fresh migrated database with one sending workspace, and the services
 * as ./infra/up.sh runs them (each `tsx <main.ts>` in its own process, configured by env): the
 * provider simulator, one or more API processes and one or more workers, on a task queue of
 * the scenario's own.
 */
import { randomBytes } from 'node:crypto';

import { createInboundWebhook, promoteInboundWebhook, type AppDeps } from '../../packages/app/src/index';
import { testDeps } from '../../packages/app/src/testing/index';
import { loadEnv } from '../../packages/config/src/index';
import { createVault } from '../../packages/db/src/index';
import { createTestDatabase, type TestDatabase } from '../../packages/db/src/testing/index';
import {
  PHONE_NUMBER_ID,
  TEMPLATE,
  WABA_ID,
  freePort,
  seedWorkspace,
  startService,
  waitForHttp,
  type SeededWorkspace,
  type Service,
} from '../bench/send-stack';

const WORKER_RUNNING = /"msg":"worker running"/;

export interface StackOptions {
  name: string;
  apis: number;
  workers: number;
  /** Subscribed contacts, the broadcast's audience. */
  recipients: number;
  runDir: string;
  bundle: string;
}

export interface Stack {
  tdb: TestDatabase;
  deps: AppDeps;
  seeded: SeededWorkspace;
  signingSecret: string;
  simUrl: string;
  apiUrls: string[];
  /** The provider ingress of the workspace on each API. */
  ingressUrls: string[];
  apis: Service[];
  workers: Service[];
  startWorker(): Promise<Service>;
  simulator: Service;
  close(): Promise<void>;
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const id = randomBytes(4).toString('hex');
  const slug = `chaos-${o.name}-${id}`;
  const masterKey = randomBytes(32).toString('hex');
  const accessToken = `sim-${randomBytes(16).toString('hex')}`;
  const signingSecret = randomBytes(24).toString('hex');
  const tdb = await createTestDatabase({ max: 4 });
  const env = loadEnv({ ...process.env, MOS_ENV: 'development', MOS_MASTER_KEY: masterKey });
  const deps: AppDeps = { ...testDeps(tdb.db), vault: createVault(Buffer.from(masterKey, 'hex'), env) };
  const seeded = await seedWorkspace(tdb.db, tdb.pool, deps.vault, { slug, accessToken, signingSecret, upgraded: false, recipients: o.recipients });
  await tdb.pool.query('ANALYZE contacts');

  const apiPorts = await Promise.all(Array.from({ length: o.apis }, () => freePort()));
  const simPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const apiUrls = apiPorts.map((p) => `http://127.0.0.1:${p}`);
  const serviceEnv = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MOS_ENV: 'development',
    DATABASE_URL: tdb.url,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: `chaos-${o.name}-${id}`,
    MOS_MASTER_KEY: masterKey,
    MOS_DATA_DIR: o.runDir,
    MOS_WORKFLOW_BUNDLE: o.bundle,
    PROVIDER_BASE_URL: simUrl,
    LOG_LEVEL: 'info',
    ...extra,
  });
  const services: Service[] = [];
  const start = (name: string, script: string, e: NodeJS.ProcessEnv) => {
    const s = startService(name, script, e, o.runDir);
    services.push(s);
    return s;
  };
  const simulator = start('simulator', 'packages/provider/src/simulator/main.ts', {
    PATH: process.env.PATH,
    SIM_PORT: String(simPort),
    SIM_WEBHOOK_URL: `${apiUrls[0]}/webhooks/messaging/${slug}`,
    SIM_SIGNING_SECRET: signingSecret,
    SIM_ACCESS_TOKEN: accessToken,
    SIM_WABA_ID: WABA_ID,
    SIM_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    SIM_THROUGHPUT_PER_SECOND: '80',
    SIM_STATUS_WEBHOOKS: 'true',
    SIM_SEED: '15',
  });
  await waitForHttp(`${simUrl}/_sim/stats`, simulator, 60_000);
  const approved = await fetch(`${simUrl}/_sim/templates/approved`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: TEMPLATE.name, language: TEMPLATE.language, category: 'UTILITY', components: [{ type: 'BODY', text: TEMPLATE.bodyText }] }),
  });
  if (!approved.ok) throw new Error(`the simulator refused the template: ${approved.status}`);

  const apis = apiPorts.map((port, i) => start(`${o.name}-api-${i + 1}`, 'services/api/src/main.ts', serviceEnv({ API_PORT: String(port) })));
  await Promise.all(apis.map((api, i) => waitForHttp(`${apiUrls[i]}/health`, api, 90_000)));
  const workers: Service[] = [];
  const startWorker = async () => {
    const w = start(`${o.name}-worker-${workers.length + 1}`, 'services/worker/src/main.ts', serviceEnv({ WORKER_METRICS_PORT: String(await freePort()) }));
    workers.push(w);
    await w.waitForLog(WORKER_RUNNING, 120_000);
    return w;
  };
  for (let i = 0; i < o.workers; i++) await startWorker();

  return {
    tdb,
    deps,
    seeded,
    signingSecret,
    simUrl,
    apiUrls,
    ingressUrls: apiUrls.map((u) => `${u}/webhooks/messaging/${slug}`),
    apis,
    workers,
    startWorker,
    simulator,
    async close() {
      for (const s of [...services].reverse()) await s.stop(10_000).catch(() => {});
      await deps.temporal.close().catch(() => {});
      await tdb.drop().catch(() => tdb.close());
    },
  };
}

/** A live inbound webhook (no mapping to a send: it stores and records a run), and its secret. */
export async function seedInboundWebhook(stack: Stack): Promise<{ url: string; secret: string }> {
  const scope = { workspaceId: stack.seeded.workspaceId, actorId: 'chaos', role: 'platform' as const };
  const created = await createInboundWebhook(
    stack.deps,
    scope,
    {
      name: 'Chaos shop',
      templateName: TEMPLATE.name,
      templateLocale: TEMPLATE.language,
      mapping: { to: 'path:customer.msisdn', 'parameters.body.1': 'customer.name' },
    },
    'admin',
  );
  await promoteInboundWebhook(stack.deps, scope, { id: created.inboundWebhook.id, live: true });
  return { url: `${stack.apiUrls[0]}/api/v1/inbound-webhooks/${created.inboundWebhook.slug}`, secret: created.secret };
}
