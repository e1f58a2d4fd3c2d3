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
 *    task queue), and the CPU seconds of each process over the send (creation -> completed):
 *    worker(s), API, simulator, Temporal server ($MOS_BENCH_TEMPORAL_PID), PostgreSQL
 *    (postmaster tree, $MOS_BENCH_PG_PID) and this process.
 *
 * Options: --recipients 10000  --rate 80|1000  --kill-worker-at 0.5  --drain-timeout 120
 *   --timeout S (default 3 x N/rate + 180)  --log-level info (the services', as up.sh)
 *   --temporal-pid / --pg-pid (default from the bench stack's env)  --keep (database and logs)
 *   --json (JSON report on stdout with a per-second timeline; the table goes to stderr)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { lazyTemporalClient } from '../../packages/app/src/index';
import { loadEnv } from '../../packages/config/src/index';
import { createVault } from '../../packages/db/src/index';
import { createTestDatabase, prepareTemplateDatabase } from '../../packages/db/src/testing/index';
import type { PhoneNumberStats, SimMessage, SimStatsSnapshot } from '../../packages/provider/src/simulator/index';
import { acceptanceCheck, census, longestPause, maxInSlidingSecond, round, table } from './send-report';
import {
  PHONE_NUMBER_ID,
  ROOT,
  TEMPLATE,
  WABA_ID,
  cpuMs,
  freePort,
  livePid,
  seedWorkspace,
  sleep,
  startService,
  treeCpuMs,
  waitForHttp,
  type Service,
} from './send-stack';

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
const IDEAL_S = N / RATE;
const TIMEOUT_MS = Number(args.timeout ?? 3 * IDEAL_S + 180) * 1000;
const TEMPORAL_PID = livePid(args['temporal-pid']);
const PG_PID = livePid(args['pg-pid']);
const say = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => (args.json ? say(line) : process.stdout.write(`${line}\n`));

type Counts = Record<string, number>;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS) throw new Error('set DATABASE_URL and TEMPORAL_ADDRESS: source "$(infra/bench/stack.sh)"');
  const runDir = mkdtempSync('/tmp/mos-send-bench-');
  const id = randomBytes(4).toString('hex');
  const taskQueue = `bench-send-${id}`;
  const slug = `bench-send-${id}`;
  const masterKey = randomBytes(32);
  const accessToken = `sim-${randomBytes(16).toString('hex')}`;
  const signingSecret = randomBytes(24).toString('hex');
  say(`run ${id}: ${N} recipients at ${RATE}/s${KILL_AT !== null ? `, worker killed at ${KILL_AT}` : ''}; logs in ${runDir}`);

  // The release step: workers load a prebuilt bundle (a restarted worker runs no webpack).
  const bundle = join(runDir, 'workflow-bundle.js');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'services/worker/src/build-workflows.ts'), bundle], { cwd: ROOT, stdio: ['ignore', 2, 2] });

  await prepareTemplateDatabase();
  const tdb = await createTestDatabase({ max: 4 });
  const env = loadEnv({ ...process.env, MOS_ENV: 'development', MOS_MASTER_KEY: masterKey.toString('hex') });
  const seeded = await seedWorkspace(tdb.db, tdb.pool, createVault(masterKey, env), {
    slug,
    accessToken,
    signingSecret,
    upgraded: RATE === 1000,
    recipients: N,
  });
  await tdb.pool.query('ANALYZE');

  const [apiPort, simPort] = [await freePort(), await freePort()];
  const simUrl = `http://127.0.0.1:${simPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const serviceEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: process.env.NODE_ENV,
    MOS_ENV: 'development',
    DATABASE_URL: tdb.url,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: taskQueue,
    MOS_MASTER_KEY: masterKey.toString('hex'),
    MOS_DATA_DIR: runDir,
    MOS_WORKFLOW_BUNDLE: bundle,
    PROVIDER_BASE_URL: simUrl,
    API_PORT: String(apiPort),
    LOG_LEVEL: args['log-level'],
  };
  const services: Service[] = [];
  const temporal = lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE });
  const startWorker = (n: number) => {
    const w = startService(`worker-${n}`, 'services/worker/src/main.ts', serviceEnv, runDir);
    services.push(w);
    return w;
  };

  try {
    const sim = startService(
      'simulator',
      'packages/provider/src/simulator/main.ts',
      {
        PATH: process.env.PATH,
        SIM_PORT: String(simPort),
        SIM_WEBHOOK_URL: `${apiUrl}/webhooks/messaging/${slug}`,
        SIM_SIGNING_SECRET: signingSecret,
        SIM_ACCESS_TOKEN: accessToken,
        SIM_WABA_ID: WABA_ID,
        SIM_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        SIM_THROUGHPUT_PER_SECOND: String(RATE),
        SIM_STATUS_WEBHOOKS: 'true',
        SIM_SEED: '12',
      },
      runDir,
    );
    services.push(sim);
    await waitForHttp(`${simUrl}/_sim/stats`, sim, 60_000);
    const seededTemplate = await fetch(`${simUrl}/_sim/templates/approved`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: TEMPLATE.name, language: TEMPLATE.language, category: 'UTILITY', components: [{ type: 'BODY', text: TEMPLATE.bodyText }] }),
    });
    if (!seededTemplate.ok) throw new Error(`the simulator refused the template: ${seededTemplate.status} ${await seededTemplate.text()}`);
    const api = startService('api', 'services/api/src/main.ts', serviceEnv, runDir);
    services.push(api);
    await waitForHttp(`${apiUrl}/health`, api, 90_000);
    const workers = [startWorker(1)];
    await workers[0]!.waitForLog(/"msg":"worker running"/, 120_000);
    await sleep(2000);

    const simStats = async (): Promise<PhoneNumberStats> => {
      const s = (await (await fetch(`${simUrl}/_sim/stats?phoneNumberId=${PHONE_NUMBER_ID}`)).json()) as SimStatsSnapshot;
      return s.phoneNumbers[PHONE_NUMBER_ID] ?? ({ accepted: 0 } as PhoneNumberStats);
    };
    const countsOf = async (broadcastId: string): Promise<Counts> => {
      const r = await tdb.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM outbound_messages WHERE broadcast_id = $1 GROUP BY status`, [
        broadcastId,
      ]);
      return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
    };
    const cpuNow = () => ({
      at: Date.now(),
      workers: workers.map((w) => w.cpuMs()),
      api: api.cpuMs(),
      simulator: sim.cpuMs(),
      temporal: TEMPORAL_PID === null ? null : cpuMs(TEMPORAL_PID),
      postgres: PG_PID === null ? null : treeCpuMs(PG_PID),
      bench: process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000,
    });

    // --- the broadcast -------------------------------------------------------------------------
    const load0 = loadavg();
    const cpu0 = cpuNow();
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
    const created = (await res.json()) as { broadcast?: { id: string; status: string } };
    if (res.status !== 202 || !created.broadcast) throw new Error(`POST /v1/broadcasts answered ${res.status}: ${JSON.stringify(created)}`);
    const broadcastId = created.broadcast.id;
    const createdMs = Date.now() - t0;

    const timeline: { t: number; accepted: number; counts: Counts }[] = [];
    let kill: { atMs: number; acceptedAtKill: number; heldSending: string[]; newWorkerRunningMs: number | null } | null = null;
    let completedAt: number | null = null;
    let lastSample = 0;
    while (completedAt === null) {
      if (Date.now() - t0 > TIMEOUT_MS) throw new Error(`the broadcast did not complete within ${TIMEOUT_MS / 1000} s; see ${runDir}`);
      const accepted: number | null = KILL_AT !== null && kill === null ? (await simStats()).accepted : null;
      if (accepted !== null && accepted >= N * KILL_AT!) {
        const old = workers[workers.length - 1]!;
        old.kill();
        const atMs = Date.now() - t0;
        const w = startWorker(workers.length + 1);
        workers.push(w);
        const held = await tdb.pool.query<{ id: string }>(`SELECT id FROM outbound_messages WHERE broadcast_id = $1 AND status = 'sending'`, [broadcastId]);
        kill = { atMs, acceptedAtKill: accepted, heldSending: held.rows.map((r) => r.id), newWorkerRunningMs: null };
        const k = kill;
        void w.waitForLog(/"msg":"worker running"/, 120_000).then(
          () => (k.newWorkerRunningMs = Date.now() - t0 - k.atMs),
          (err: unknown) => say(`warning: ${(err as Error).message}`),
        );
        say(`t=${(atMs / 1000).toFixed(1)} s: worker killed at ${accepted} accepted (${k.heldSending.length} messages held as sending); worker-${workers.length} started`);
      }
      if (Date.now() - lastSample >= 1000) {
        lastSample = Date.now();
        timeline.push({ t: round((lastSample - t0) / 1000)!, accepted: (await simStats()).accepted, counts: await countsOf(broadcastId) });
      }
      const b = await tdb.pool.query<{ status: string; finished_at: Date | null }>(`SELECT status, finished_at FROM broadcasts WHERE id = $1`, [broadcastId]);
      const row = b.rows[0];
      if (row && ['completed', 'cancelled', 'failed'].includes(row.status)) {
        if (row.status !== 'completed') throw new Error(`the broadcast ended ${row.status}`);
        completedAt = row.finished_at ? new Date(row.finished_at).getTime() : Date.now();
      } else await sleep(kill === null && KILL_AT !== null ? 100 : 250);
    }
    const cpu1 = cpuNow();
    const load1 = loadavg();
    const countsAtCompletion = await countsOf(broadcastId);
    const lastSent = await tdb.pool.query<{ t: Date | null }>(`SELECT max(sent_at) AS t FROM outbound_messages WHERE broadcast_id = $1`, [broadcastId]);
    const view = (await (await fetch(`${apiUrl}/v1/broadcasts/${broadcastId}`, { headers: { 'x-api-key': seeded.apiKey } })).json()) as {
      broadcast: { status: string; counts: Counts };
    };

    // --- drain: every status webhook in and processed ------------------------------------------
    const drainStart = Date.now();
    let drainedMs: number | null = null;
    while (Date.now() - drainStart < Number(args['drain-timeout']) * 1000) {
      const s = (await (await fetch(`${simUrl}/_sim/stats`)).json()) as SimStatsSnapshot;
      const jobs = await tdb.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_jobs WHERE status IN ('pending', 'dispatched', 'retrying')`);
      if (s.statuses.queued === 0 && s.statuses.envelopesPending === 0 && jobs.rows[0]!.n === 0) {
        drainedMs = Date.now() - drainStart;
        break;
      }
      await sleep(500);
    }
    await sleep(1000); // visibility catches up with the last batch runs
    const countsFinal = await countsOf(broadcastId);
    const stats = await simStats();
    const simAll = (await (await fetch(`${simUrl}/_sim/stats`)).json()) as SimStatsSnapshot;
    const log = (
      (await (await fetch(`${simUrl}/_sim/messages?limit=100000&phoneNumberId=${PHONE_NUMBER_ID}`)).json()) as {
        messages: Pick<SimMessage, 'callbackData' | 'acceptedAt'>[];
      }
    ).messages;
    const acceptedAt = log.map((m) => Date.parse(m.acceptedAt));
    const ids = (await tdb.pool.query<{ id: string }>(`SELECT id FROM outbound_messages WHERE broadcast_id = $1`, [broadcastId])).rows.map((r) => r.id);
    const dbDup = await tdb.pool.query<{ retried: number; sent_twice: number }>(
      `SELECT count(*) FILTER (WHERE attempts > 1)::int AS retried,
              count(*) FILTER (WHERE (SELECT count(*) FROM jsonb_array_elements(status_history) e WHERE e->>'status' = 'sent') > 1)::int AS sent_twice
         FROM outbound_messages WHERE broadcast_id = $1`,
      [broadcastId],
    );
    const client = await temporal.get();
    const runs = await census(client, taskQueue);

    // --- figures ----------------------------------------------------------------------------------
    const totalS = (completedAt - t0) / 1000;
    const first = stats.firstAcceptedAt ? Date.parse(stats.firstAcceptedAt) : NaN;
    const last = stats.lastAcceptedAt ? Date.parse(stats.lastAcceptedAt) : NaN;
    const windowS = (cpu1.at - cpu0.at) / 1000;
    const sec = (a: number | null, b: number | null) => (a === null || b === null ? null : round((b - a) / 1000, 2));
    const workerCpuS = round(cpu1.workers.reduce((sum, c, i) => sum + c - (cpu0.workers[i] ?? 0), 0) / 1000, 2);
    const cpuS = {
      worker: workerCpuS,
      api: sec(cpu0.api, cpu1.api),
      simulator: sec(cpu0.simulator, cpu1.simulator),
      temporal: sec(cpu0.temporal, cpu1.temporal),
      postgres: sec(cpu0.postgres, cpu1.postgres),
      bench: sec(cpu0.bench, cpu1.bench),
    };
    const cpuTotal = Object.values(cpuS).reduce<number>((a, b) => a + (b ?? 0), 0);
    const heldAccepted = kill ? kill.heldSending.filter((m) => log.some((l) => l.callbackData === m && Date.parse(l.acceptedAt) < t0 + kill!.atMs)).length : 0;
    const resendTimes = kill
      ? log.filter((l) => l.callbackData && kill!.heldSending.includes(l.callbackData) && Date.parse(l.acceptedAt) > t0 + kill!.atMs).map((l) => Date.parse(l.acceptedAt))
      : [];
    const firstAfterKill = kill ? Math.min(...acceptedAt.filter((a) => a > t0 + kill!.atMs)) : null;
    const report = {
      config: { recipients: N, rate: RATE, killWorkerAt: KILL_AT, taskQueue, cores: cpus().length, logLevel: args['log-level'], runDir },
      loadavg: { before: load0.map((x) => round(x, 2)), atCompletion: load1.map((x) => round(x, 2)) },
      time: {
        idealS: IDEAL_S,
        createToCompletedS: round(totalS, 2),
        deviationPct: round(((totalS - IDEAL_S) / IDEAL_S) * 100, 2),
        createAnsweredMs: createdMs,
        createToFirstAcceptS: round((first - t0) / 1000, 2),
        firstToLastAcceptS: round((last - first) / 1000, 2),
        lastAcceptToCompletedS: round((completedAt - last) / 1000, 2),
        lastSentRecordedS: lastSent.rows[0]?.t ? round((new Date(lastSent.rows[0].t).getTime() - t0) / 1000, 2) : null,
        longestPauseMs: longestPause(acceptedAt).ms,
      },
      achievedRatePerS: round(stats.accepted / ((last - first) / 1000), 2),
      simulator: {
        accepted: stats.accepted,
        maxPerSecond: stats.maxPerSecond,
        secondsOverLimit: stats.secondsOverLimit,
        maxInSlidingSecond: maxInSlidingSecond(acceptedAt),
        duplicates: stats.duplicates,
        pairViolations: stats.pairViolations,
        rejectionsByCode: stats.rejectionsByCode,
        timeouts: stats.timeouts,
        statusWebhooks: { delivered: simAll.statuses.delivered, deliveryFailures: simAll.statuses.deliveryFailures, givenUp: simAll.statuses.givenUp },
      },
      perMessage: acceptanceCheck(ids, log),
      db: {
        atCompletion: countsAtCompletion,
        apiView: view.broadcast.counts,
        afterDrain: countsFinal,
        drainedAfterCompletionMs: drainedMs,
        sentPlusDeliveredPlusRead: (countsFinal.sent ?? 0) + (countsFinal.delivered ?? 0) + (countsFinal.read ?? 0),
        messagesWithMoreThanOneSentEntry: dbDup.rows[0]!.sent_twice,
        messagesWithMoreThanOneAttempt: dbDup.rows[0]!.retried,
      },
      kill: kill && {
        atS: round(kill.atMs / 1000, 2),
        acceptedAtKill: kill.acceptedAtKill,
        newWorkerRunningAfterS: kill.newWorkerRunningMs === null ? null : round(kill.newWorkerRunningMs / 1000, 2),
        sendingResumedAfterS: firstAfterKill === null || !Number.isFinite(firstAfterKill) ? null : round((firstAfterKill - t0 - kill.atMs) / 1000, 2),
        heldAsSending: kill.heldSending.length,
        heldAlreadyAccepted: heldAccepted,
        heldSentAfterKill: resendTimes.length,
        heldSentAfterKillFirstS: resendTimes.length ? round((Math.min(...resendTimes) - t0) / 1000, 2) : null,
        heldSentAfterKillLastS: resendTimes.length ? round((Math.max(...resendTimes) - t0) / 1000, 2) : null,
      },
      temporal: {
        runs: runs.runs,
        openRuns: runs.open,
        historyEvents: runs.historyEvents,
        historyEventsPerMessage: round(runs.historyEvents / N, 3),
        byType: runs.byType,
      },
      cpu: {
        windowS: round(windowS, 2),
        seconds: cpuS,
        msPerMessage: Object.fromEntries(Object.entries(cpuS).map(([k, v]) => [k, v === null ? null : round((v * 1000) / N, 2)])),
        coresBusy: round(cpuTotal / windowS, 2),
        workerCoresBusy: workerCpuS === null ? null : round(workerCpuS / windowS, 2),
      },
      timeline: args.json ? timeline : undefined,
    };
    print(report);
    if (args.json) console.log(JSON.stringify(report, null, 2));
    await client.workflow
      .getHandle(`send-governor-${seeded.workspaceId}-${PHONE_NUMBER_ID}`)
      .terminate('benchmark over')
      .catch(() => {});
  } finally {
    for (const s of [...services].reverse()) await s.stop().catch(() => {});
    await temporal.close();
    if (args.keep) {
      await tdb.close();
      say(`kept database ${tdb.name} and ${runDir}`);
    } else {
      await tdb.drop();
      rmSync(runDir, { recursive: true, force: true });
    }
  }
}

function print(r: {
  time: Record<string, number | null>;
  achievedRatePerS: number | null;
  simulator: { rejectionsByCode: Record<string, number> } & Record<string, unknown>;
  perMessage: Record<string, number>;
  db: { atCompletion: Counts; afterDrain: Counts } & Record<string, unknown>;
  kill: Record<string, number | null> | null;
  temporal: { historyEventsPerMessage: number | null; runs: number; byType: Record<string, { runs: number; historyEvents: number }> };
  cpu: { seconds: Record<string, number | null>; coresBusy: number | null; msPerMessage: Record<string, number | null> };
  loadavg: { atCompletion: (number | null)[] };
}): void {
  const counts = (c: Counts) =>
    Object.entries(c)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  const s = r.simulator;
  const rows: [string, string | number | null][] = [
    ['recipients / rate', `${N} at ${RATE}/s (ideal ${IDEAL_S} s)`],
    ['total (create -> completed)', `${r.time.createToCompletedS} s (${r.time.deviationPct}% from ideal)`],
    ['first accept / last accept / completed', `${r.time.createToFirstAcceptS} / ${(r.time.createToFirstAcceptS ?? 0) + (r.time.firstToLastAcceptS ?? 0)} / ${r.time.createToCompletedS} s`],
    ['achieved rate', `${r.achievedRatePerS}/s`],
    ['max per second / seconds over limit', `${String(s.maxPerSecond)} / ${String(s.secondsOverLimit)} (sliding 1 s max ${String(s.maxInSlidingSecond)})`],
    ['duplicates (simulator) / pair violations', `${String(s.duplicates)} / ${String(s.pairViolations)}`],
    ['rejections by code', JSON.stringify(s.rejectionsByCode)],
    ['messages accepted once / more / never', `${r.perMessage.acceptedOnce} / ${r.perMessage.acceptedMoreThanOnce} / ${r.perMessage.neverAccepted}`],
    ['DB at completion', counts(r.db.atCompletion)],
    ['DB after drain', `${counts(r.db.afterDrain)} (drained ${String(r.db.drainedAfterCompletionMs)} ms after)`],
    ['DB: >1 sent entry / >1 attempt', `${String(r.db.messagesWithMoreThanOneSentEntry)} / ${String(r.db.messagesWithMoreThanOneAttempt)}`],
    ['longest pause between accepts', `${r.time.longestPauseMs} ms`],
    [
      'Temporal history events / message',
      `${r.temporal.historyEventsPerMessage} (${r.temporal.runs} runs: ${Object.entries(r.temporal.byType)
        .map(([t, v]) => `${t} ${v.runs}/${v.historyEvents} ev`)
        .join(', ')})`,
    ],
    [
      'CPU s (ms/message)',
      Object.entries(r.cpu.seconds)
        .map(([k, v]) => `${k} ${v} (${r.cpu.msPerMessage[k]})`)
        .join(', '),
    ],
    ['cores busy over the send / load avg', `${r.cpu.coresBusy} / ${r.loadavg.atCompletion.join(' ')}`],
  ];
  if (r.kill) {
    rows.push([
      'kill',
      `at ${r.kill.atS} s (${r.kill.acceptedAtKill} accepted); new worker running after ${r.kill.newWorkerRunningAfterS} s, sending resumed after ${r.kill.sendingResumedAfterS} s; ` +
        `${r.kill.heldAsSending} held as sending (${r.kill.heldAlreadyAccepted} already accepted, ${r.kill.heldSentAfterKill} sent after the kill, ${r.kill.heldSentAfterKillFirstS}-${r.kill.heldSentAfterKillLastS} s)`,
    ]);
  }
  out(table(rows));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
