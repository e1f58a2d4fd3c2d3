/**
 * Send-path benchmark (issue 12, "Figures"): one broadcast of an approved template to N
 * subscribed contacts, paced by the send governor against the provider simulator at its
 * per-number limit, with every service in its own process as ./infra/up.sh runs it.
 *
 *   source "$(infra/bench/stack.sh)"        # PostgreSQL (fsync on) + Temporal dev server; restart between runs you compare
 *   pnpm exec tsx infra/bench/send-governor.ts --recipients 10000 --rate 80
 *   pnpm exec tsx infra/bench/send-governor.ts --recipients 10000 --rate 80 --kill-worker-at 0.5
 *   pnpm exec tsx infra/bench/send-governor.ts --recipients 20000 --rate 1000
 *   infra/bench/stack.sh stop
 *
 * What it does:
 * 1. A fresh migrated database (cloned from the migrations' template) with one workspace: phone
 *    number id, access token and webhook signing secret in the vault, `throughput_upgraded` =
 *    (rate == 1000), the template approved in mos (`synced_templates`) and in the simulator, an
 *    API key, and N subscribed contacts with distinct E.164 numbers.
 * 2. The workflow bundle built once (`pnpm build:workflows` into the run's directory, as a
 *    release does), then three processes on the bench stack, each `tsx <main.ts>` with env as
 *    up.sh gives it: the simulator (SIM_THROUGHPUT_PER_SECOND = rate, signed status webhooks to
 *    the API's `/webhooks/messaging/<slug>`), the API and the worker, on a task queue of the
 *    run's own. Logs in the run's directory (printed).
 * 3. `POST /v1/broadcasts` (segment: every subscribed contact); the clock runs from just before
 *    that request until the broadcast is `completed` (its `finished_at`), when no message is
 *    queued or sending any more.
 * 4. `--kill-worker-at 0.5`: once the simulator has accepted half of N, the worker gets SIGKILL
 *    and a new one starts at once. Reported: when sending resumed, and what became of the
 *    messages the dead worker held as `sending`.
 * 5. Then (up to `--drain-timeout` s) every status webhook processed, and the figures: total
 *    time against N/rate, achieved rate (accepted / (lastAcceptedAt - firstAcceptedAt)), the
 *    simulator's counters (max per calendar second, seconds over the limit, duplicates by
 *    callback data, pair violations, rejections by code), every message checked against the
 *    simulator's log (accepted once / more / never), counts by status from the database at
 *    completion and after the drain, Temporal history events per message (every run on the
 *    task queue), how long status webhooks took from stored to applied (a send held as
 *    `sending` is requeued after 60 s unless one was applied), PostgreSQL deadlocks and the
 *    workers' activity failures, and the CPU seconds of each process over the send (creation ->
 *    completed) and while sending at speed (the seconds that accepted at least rate/2, which
 *    name the bottleneck): worker(s), API, simulator, Temporal server ($MOS_BENCH_TEMPORAL_PID),
 *    PostgreSQL (postmaster tree, $MOS_BENCH_PG_PID) and this process.
 *
 * Statistics: the contacts are analysed after the seed (an imported audience has statistics);
 * the send tables are left to autovacuum, as in a deployment.
 *
 * Options: --recipients 10000  --rate 80|1000  --kill-worker-at 0.5  --drain-timeout 120
 *   --timeout S (default 10 x N/rate + 300; past it the figures are reported as they stand)
 *   --log-level info (the services', as up.sh)
 *   --temporal-pid / --pg-pid (default from the bench stack's env)  --keep (database and logs)
 *   --no-status-webhooks (diagnosis: the simulator sends none, so nothing but the governor
 *   writes the messages while they are sent)
 *   --json (JSON report on stdout with a per-second timeline; the table goes to stderr)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lazyTemporalClient } from '../../packages/app/src/index';
import { loadEnv } from '../../packages/config/src/index';
import { createVault } from '../../packages/db/src/index';
import { createTestDatabase, prepareTemplateDatabase } from '../../packages/db/src/testing/index';
import { collectFigures, countsOf, cpuMark, deadlocks, simNumberStats, type KillRecord, type TimelinePoint } from './send-figures';
import { printFigures, round } from './send-report';
import { PHONE_NUMBER_ID, ROOT, TEMPLATE, WABA_ID, freePort, livePid, seedWorkspace, sleep, startService, waitForHttp, type Service } from './send-stack';

const { values: args } = parseArgs({
  options: {
    recipients: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '80' },
    'kill-worker-at': { type: 'string' },
    'drain-timeout': { type: 'string', default: '120' },
    timeout: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    'temporal-pid': { type: 'string', default: process.env.MOS_BENCH_TEMPORAL_PID ?? '' },
    'pg-pid': { type: 'string', default: process.env.MOS_BENCH_PG_PID ?? '' },
    'no-status-webhooks': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const N = Number(args.recipients);
const RATE = Number(args.rate);
const KILL_AT = args['kill-worker-at'] === undefined ? null : Number(args['kill-worker-at']);
if (!Number.isInteger(N) || N < 1) throw new Error('--recipients must be a positive integer');
if (RATE !== 80 && RATE !== 1000) throw new Error('--rate must be 80 or 1000 (the provider tiers mos knows)');
if (KILL_AT !== null && !(KILL_AT > 0 && KILL_AT < 1)) throw new Error('--kill-worker-at must be between 0 and 1');
const TIMEOUT_MS = Number(args.timeout ?? (10 * N) / RATE + 300) * 1000;
const TEMPORAL_PID = livePid(args['temporal-pid']);
const PG_PID = livePid(args['pg-pid']);
const say = (line: string) => process.stderr.write(`${line}\n`);
const WORKER_RUNNING = /"msg":"worker running"/;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS) throw new Error('set DATABASE_URL and TEMPORAL_ADDRESS: source "$(infra/bench/stack.sh)"');
  const runDir = mkdtempSync('/tmp/mos-send-bench-');
  const id = randomBytes(4).toString('hex');
  const taskQueue = `bench-send-${id}`;
  const slug = `bench-send-${id}`;
  const masterKey = randomBytes(32).toString('hex');
  const accessToken = `sim-${randomBytes(16).toString('hex')}`;
  const signingSecret = randomBytes(24).toString('hex');
  say(`run ${id}: ${N} recipients at ${RATE}/s${KILL_AT !== null ? `, worker killed at ${KILL_AT}` : ''}; logs in ${runDir}`);

  // The release step: workers load a prebuilt bundle (a restarted worker runs no webpack).
  const bundle = join(runDir, 'workflow-bundle.js');
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'services/worker/src/build-workflows.ts'), bundle], { cwd: ROOT, stdio: 'pipe' });
  } catch (err) {
    say(String((err as { stderr?: Buffer }).stderr ?? ''));
    throw err;
  }

  await prepareTemplateDatabase();
  const tdb = await createTestDatabase({ max: 4 });
  const env = loadEnv({ ...process.env, MOS_ENV: 'development', MOS_MASTER_KEY: masterKey });
  const seeded = await seedWorkspace(tdb.db, tdb.pool, createVault(Buffer.from(masterKey, 'hex'), env), {
    slug,
    accessToken,
    signingSecret,
    upgraded: RATE === 1000,
    recipients: N,
  });
  // The audience has statistics, as an imported one would; the send tables are left to autovacuum, as in any deployment.
  await tdb.pool.query('ANALYZE contacts');

  const [apiPort, simPort] = [await freePort(), await freePort()];
  const simUrl = `http://127.0.0.1:${simPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  // What up.sh gives the apps (development, its own master key, the simulator as provider).
  const serviceEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    MOS_ENV: 'development',
    DATABASE_URL: tdb.url,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: taskQueue,
    MOS_MASTER_KEY: masterKey,
    MOS_DATA_DIR: runDir,
    MOS_WORKFLOW_BUNDLE: bundle,
    PROVIDER_BASE_URL: simUrl,
    API_PORT: String(apiPort),
    LOG_LEVEL: args['log-level'],
  };
  const simEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    SIM_PORT: String(simPort),
    SIM_WEBHOOK_URL: `${apiUrl}/webhooks/messaging/${slug}`,
    SIM_SIGNING_SECRET: signingSecret,
    SIM_ACCESS_TOKEN: accessToken,
    SIM_WABA_ID: WABA_ID,
    SIM_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    SIM_THROUGHPUT_PER_SECOND: String(RATE),
    SIM_STATUS_WEBHOOKS: args['no-status-webhooks'] ? 'false' : 'true',
    SIM_SEED: '12',
  };
  const services: Service[] = [];
  const workers: Service[] = [];
  const start = (name: string, script: string, e: NodeJS.ProcessEnv) => {
    const s = startService(name, script, e, runDir);
    services.push(s);
    return s;
  };
  const startWorker = () => {
    const w = start(`worker-${workers.length + 1}`, 'services/worker/src/main.ts', serviceEnv);
    workers.push(w);
    return w;
  };
  const temporal = lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE });
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const s of [...services].reverse()) await s.stop().catch(() => {});
      await temporal.close();
      if (args.keep) {
        await tdb.close();
        say(`kept database ${tdb.name} and ${runDir}`);
      } else {
        await tdb.drop();
        rmSync(runDir, { recursive: true, force: true });
      }
    })());
  // Interrupted: the services this run started stop with it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

  try {
    const simulator = start('simulator', 'packages/provider/src/simulator/main.ts', simEnv);
    await waitForHttp(`${simUrl}/_sim/stats`, simulator, 60_000);
    const template = await fetch(`${simUrl}/_sim/templates/approved`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: TEMPLATE.name, language: TEMPLATE.language, category: 'UTILITY', components: [{ type: 'BODY', text: TEMPLATE.bodyText }] }),
    });
    if (!template.ok) throw new Error(`the simulator refused the template: ${template.status} ${await template.text()}`);
    const api = start('api', 'services/api/src/main.ts', serviceEnv);
    await waitForHttp(`${apiUrl}/health`, api, 90_000);
    await startWorker().waitForLog(WORKER_RUNNING, 120_000);
    await sleep(2000);
    const mark = () => cpuMark({ workers, api, simulator, temporalPid: TEMPORAL_PID, pgPid: PG_PID });

    // --- the broadcast: from just before its creation until it is completed ------------------------
    const deadlocks0 = await deadlocks(tdb.pool);
    const load0 = loadavg();
    const cpu0 = mark();
    const t0 = Date.now();
    const res = await fetch(`${apiUrl}/v1/broadcasts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': seeded.apiKey },
      body: JSON.stringify({
        name: `bench ${id}`,
        template: { name: TEMPLATE.name, language: TEMPLATE.language, parameters: TEMPLATE.parameters },
        segment: { subscriberStatus: 'subscribed' },
      }),
    });
    const created = (await res.json()) as { broadcast?: { id: string } };
    if (res.status !== 202 || !created.broadcast) throw new Error(`POST /v1/broadcasts answered ${res.status}: ${JSON.stringify(created)}`);
    const broadcastId = created.broadcast.id;
    const createdMs = Date.now() - t0;

    const timeline: TimelinePoint[] = [];
    let kill: KillRecord | null = null;
    let completedAt: number | null = null;
    let timedOut = false;
    let lastSample = 0;
    while (completedAt === null) {
      if (Date.now() - t0 > TIMEOUT_MS) {
        say(`the broadcast did not complete within ${TIMEOUT_MS / 1000} s: figures as they stand`);
        timedOut = true;
        completedAt = Date.now();
        break;
      }
      const accepted: number | null = KILL_AT !== null && kill === null ? (await simNumberStats(simUrl)).accepted : null;
      if (accepted !== null && accepted >= N * KILL_AT!) {
        workers[workers.length - 1]!.kill();
        const atMs = Date.now() - t0;
        const next = startWorker();
        const held = await tdb.pool.query<{ id: string }>(`SELECT id FROM outbound_messages WHERE broadcast_id = $1 AND status = 'sending'`, [broadcastId]);
        const k: KillRecord = { atMs, acceptedAtKill: accepted, heldSending: held.rows.map((r) => r.id), newWorkerRunningMs: null };
        kill = k;
        void next.waitForLog(WORKER_RUNNING, 120_000).then(
          () => (k.newWorkerRunningMs = Date.now() - t0 - k.atMs),
          (err: unknown) => say(`warning: ${(err as Error).message}`),
        );
        say(`t=${(atMs / 1000).toFixed(1)} s: worker killed at ${accepted} accepted (${k.heldSending.length} messages held as sending); ${next.name} started`);
      }
      if (Date.now() - lastSample >= 1000) {
        lastSample = Date.now();
        timeline.push({
          t: round((lastSample - t0) / 1000),
          accepted: (await simNumberStats(simUrl)).accepted,
          counts: await countsOf(tdb.pool, broadcastId),
          cpu: mark(),
        });
      }
      const row = (
        await tdb.pool.query<{ status: string; finished_at: Date | null }>(`SELECT status, finished_at FROM broadcasts WHERE id = $1`, [broadcastId])
      ).rows[0];
      if (row && ['completed', 'cancelled', 'failed'].includes(row.status)) {
        if (row.status !== 'completed') throw new Error(`the broadcast ended ${row.status}`);
        completedAt = row.finished_at ? new Date(row.finished_at).getTime() : Date.now();
      } else await sleep(kill === null && KILL_AT !== null ? 100 : 250);
    }
    const cpu1 = mark();

    const client = await temporal.get();
    const figures = await collectFigures({
      n: N,
      rate: RATE,
      json: args.json,
      drainTimeoutS: Number(args['drain-timeout']),
      config: {
        recipients: N,
        rate: RATE,
        killWorkerAt: KILL_AT,
        statusWebhooks: !args['no-status-webhooks'],
        taskQueue,
        cores: cpus().length,
        logLevel: args['log-level'],
        runDir,
      },
      pool: tdb.pool,
      simUrl,
      apiUrl,
      apiKey: seeded.apiKey,
      broadcastId,
      taskQueue,
      t0,
      createdMs,
      completedAt,
      timedOut,
      workers,
      cpu0,
      cpu1,
      load0,
      deadlocks0,
      kill,
      timeline,
      client,
    });
    const text = printFigures(figures, N, RATE);
    if (args.json) {
      say(text);
      console.log(JSON.stringify(figures, null, 2));
    } else console.log(text);
    // The governor lingers idle for minutes: end it with the run.
    await client.workflow
      .getHandle(`send-governor-${seeded.workspaceId}-${PHONE_NUMBER_ID}`)
      .terminate('benchmark over')
      .catch(() => {});
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
