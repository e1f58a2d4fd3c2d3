/**
 * End-to-end webhook pipeline benchmark: signed POSTs to the real ingress route at a fixed
 * rate (open loop: requests go out on schedule, never waiting for earlier responses), the real
 * worker runtime (relay + Temporal worker, same code as up.sh), a fresh migrated database and
 * the Temporal server at TEMPORAL_ADDRESS. The relay claims pending jobs into batches (one per
 * free ordering lane, `--lanes`, up to `--batch` each) and starts one `processWebhookBatch`
 * run per batch.
 *
 * Start a private stack first (PostgreSQL fsync on, Temporal dev server on a SQLite file, as
 * up.sh runs them; see stack.sh), then:
 *
 *   source "$(infra/bench/stack.sh)"
 *   pnpm exec tsx infra/bench/end-to-end.ts --rate 100 --duration 60 --api-process --worker-process --mix realistic   # as up.sh runs it
 *   pnpm exec tsx infra/bench/end-to-end.ts --rate 100 --duration 60 --api-process --worker-process --mix realistic --no-temporal   # baseline
 *   pnpm exec tsx infra/bench/end-to-end.ts --rate 100 --duration 60 --api-process --worker-process --mix realistic --no-eager      # eager start off
 *   pnpm exec tsx infra/bench/end-to-end.ts --capacity --api-process --worker-process --mix realistic   # both paths + ratio
 *   pnpm exec tsx infra/bench/end-to-end.ts --rate 100 --duration 60                 # everything in one process (the old default)
 *   infra/bench/stack.sh stop
 *
 * As up.sh runs it means `--api-process --worker-process`: ./infra/up.sh runs the API and the
 * worker as separate processes, so the load generator, the ingress and the worker side each
 * get their own event loop. Without them all three share this process's one event loop, which
 * at ~100/s is close to saturated (see benchEventLoopUtilization): the bench then measures
 * itself, not the pipeline.
 *
 * Options:
 *   --rate 100 --duration 60    offered rate (requests/s) and load duration (s)
 *   --mix single|distinct|realistic
 *       single (default): every request is `--fixture` (inbound-text) with its own message id.
 *         All of them name the same customer, so they share ONE ordering key and one relay lane:
 *         at most one batch is in flight, whatever --lanes says.
 *       distinct: `--fixture` with its own customer per request (one conversation each).
 *       realistic: per conversation an inbound text, then `sent`, `delivered`, `read` for our
 *         reply, in that receipt order, each conversation with its own customer phone, name,
 *         inbound and outbound wamids. `--conversations N` (default 50) are interleaved: the
 *         stream sends the inbound of N conversations, then their `sent`, and so on, so N
 *         conversations are open at once and one conversation's webhooks are N/rate s apart.
 *   --lanes 4 --batch 50 --poll 1000   relay: ordering lanes, max batch size (<= 50), fallback poll (ms)
 *   --activities 100 --cached 1000 --wf-tasks 40   Temporal worker tuning
 *   --effects default|noop      noop: effects record nothing beyond the delivery
 *   --direct                    skip HTTP: insert event + job + NOTIFY in the ingress's transaction shape
 *   --api-process               serve the ingress from a child process (ingest-server.ts, the real Express app)
 *   --worker-process            run the worker side in a child process (worker-process.ts): in Temporal mode
 *                               startWorkerRuntime (relay + Temporal worker + batch apply, production effects
 *                               unless --effects noop), with --no-temporal the relay + in-process dispatcher
 *                               (pipeline.ts: one implementation for both places). The child reports its relay
 *                               and in-process counters, CPU, event-loop utilization and SQL statements over IPC;
 *                               the bench waits for it to be ready (relay listening, worker running) before the
 *                               warm-up and stops it with SIGTERM at the end. One child per path (a capacity
 *                               run's steps share it; its counters are diffed per step).
 *   --worker-pool 10            the worker child's pool size (DATABASE_POOL_MAX; up.sh's worker runs the default 10)
 *   --no-eager                  start batch runs without eager start (relay default: eager); Temporal path only
 *   --no-temporal               the same relay with a dispatcher that applies each batch in the worker side's process
 *                               (createApplyWebhookBatch, looping on `not_attempted`), no Temporal at all:
 *                               the physical limit of our own work. TEMPORAL_ADDRESS is not needed.
 *   --drain-timeout 120         s after the load to wait for every job to finish
 *   --temporal-pid PID          the Temporal server's pid (default $MOS_BENCH_TEMPORAL_PID): CPU ms per webhook
 *   --pg-pid PID                the postmaster's pid (default $MOS_BENCH_PG_PID): PostgreSQL CPU ms per webhook
 *   --json                      pretty JSON with a 0.5 s timeline of the queue
 *
 * Capacity (`--capacity`): steps the offered rate from `--start` (50/s) by `--factor` (1.5)
 * for `--step-duration` s (20) each, until a step fails: p99(200 -> processedAt) >= `--p99-limit`
 * ms (2000), any non-200, or not every webhook processed within `--step-drain` s (10) after the
 * step's load. The highest rate that passed is the sustained rate. Each path gets a fresh
 * database and runtime; steps of one path share them. By default it runs the Temporal path, then
 * `--no-temporal`, and prints both and the ratio; `--no-temporal` runs only the baseline,
 * `--only-temporal` only the Temporal path. `--max-steps` (12) bounds the search.
 *
 * Per run it prints (stderr, human) and reports (stdout, JSON): offered and achieved rate, ingest
 * p50/p99, 200 -> processedAt p50/p99/max, processed/failed/missing, when pending reached 0 and
 * when every job finished after the load, the relay's batch-size histogram (diffed over the run),
 * batches per webhook, and on the Temporal path the dev server's CPU ms per webhook (its
 * utime+stime from /proc over load start -> every run closed, with its idle rate measured for 2 s
 * before the load), history events per webhook (sum of `historyLength` of the runs started on the
 * bench's task queue during the load, divided by webhooks finished) and runs per webhook (batch
 * runs + per-webhook runs). CPU ms per webhook of each process: this one (the load generator,
 * plus the API and the worker side unless they run in children), the API child, the worker
 * child (its process.cpuUsage over IPC, all threads) and PostgreSQL (postmaster + backends); the
 * event-loop utilization of this process and of the worker child (main thread), during the load
 * and over load + drain; SQL statements per webhook of this process and of the worker child.
 *
 * Imports go through relative paths because infra/ is not a workspace package.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createLogger, loadEnv, type Env } from '../../packages/config/src/index';
import { createVault } from '../../packages/db/src/index';
import { providerClientFromEnv } from '../../packages/provider/src/index';
import { lazyTemporalClient, type LazyTemporalClient } from '../../packages/app/src/index';
import { signProviderBody, type Clock } from '../../packages/core/src/index';
import { setProviderIngressWorkspace, upsertWorkspace } from '../../packages/db/src/index';
import { createTestDatabase, prepareTemplateDatabase, storeTestWebhookJob, type TestDatabase } from '../../packages/db/src/testing/index';
import { createApiApp } from '../../services/api/src/app';
import { WEBHOOK_BATCH_WORKFLOW_TYPE, WEBHOOK_WORKFLOW_TYPE } from '../../workflows/src/webhook-processing/contract';
import { cpuMs, procStat, treeCpuMs } from './proc-cpu';
import { bodyStream, MIXES, type Mix } from './webhook-bodies';
import {
  countStatements,
  pipelineSnapshot,
  sqlStatements,
  startPipeline,
  type FromWorker,
  type Mode,
  type PipelineConfig,
  type ToWorker,
  type WorkerRequest,
  type WorkerSnapshot,
} from './pipeline';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '60' },
    fixture: { type: 'string', default: 'inbound-text' },
    mix: { type: 'string', default: 'single' },
    conversations: { type: 'string', default: '50' },
    activities: { type: 'string', default: '100' },
    cached: { type: 'string', default: '1000' },
    'wf-tasks': { type: 'string', default: '40' },
    batch: { type: 'string', default: '50' },
    lanes: { type: 'string', default: '4' },
    poll: { type: 'string', default: '1000' },
    'drain-timeout': { type: 'string', default: '120' },
    /** noop: effects record nothing beyond the delivery (isolates pipeline + Temporal cost). */
    effects: { type: 'string', default: 'default' },
    /** Skip HTTP: insert event + job + NOTIFY in one transaction, as the ingress does. */
    direct: { type: 'boolean', default: false },
    /** Serve the ingress from a child process (ingest-server.ts, the real Express app), as up.sh runs the API apart from the worker. */
    'api-process': { type: 'boolean', default: false },
    /** Run the worker side (relay + Temporal worker, or relay + in-process apply) in a child process (worker-process.ts), as up.sh runs the worker apart. */
    'worker-process': { type: 'boolean', default: false },
    /** The worker child's pool size (DATABASE_POOL_MAX; up.sh's worker runs the default, 10). */
    'worker-pool': { type: 'string', default: '10' },
    /** Start batch runs without eager start (the relay's default is eager). */
    'no-eager': { type: 'boolean', default: false },
    'no-temporal': { type: 'boolean', default: false },
    'only-temporal': { type: 'boolean', default: false },
    'temporal-pid': { type: 'string', default: process.env.MOS_BENCH_TEMPORAL_PID ?? '' },
    'pg-pid': { type: 'string', default: process.env.MOS_BENCH_PG_PID ?? '' },
    capacity: { type: 'boolean', default: false },
    start: { type: 'string', default: '50' },
    factor: { type: 'string', default: '1.5' },
    'step-duration': { type: 'string', default: '20' },
    'step-drain': { type: 'string', default: '10' },
    'max-steps': { type: 'string', default: '12' },
    'p99-limit': { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
  },
});
/** infra/ has no dependencies of its own: the client type comes through the app package. */
type Client = Awaited<ReturnType<LazyTemporalClient['get']>>;

const log = createLogger({ name: 'bench', level: process.env.LOG_LEVEL ?? 'warn' });
const clock: Clock = { now: () => new Date() };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const say = (line: string) => process.stderr.write(`${line}\n`);
const round = (x: number, digits = 1) => (Number.isFinite(x) ? +x.toFixed(digits) : null);

const MIX = args.mix as Mix;
if (!MIXES.includes(MIX)) throw new Error(`--mix must be single, distinct or realistic (got ${args.mix})`);
if (!['default', 'noop'].includes(args.effects)) throw new Error(`--effects must be default or noop (got ${args.effects})`);

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// ---------------------------------------------------------------------------------------------
// CPU time from /proc
// ---------------------------------------------------------------------------------------------

function pidOption(name: 'temporal-pid' | 'pg-pid'): number | null {
  const raw = args[name];
  if (!raw) return null;
  const pid = Number(raw);
  if (!Number.isInteger(pid) || !procStat(pid)) {
    say(`warning: --${name} ${raw} is not a running process; its CPU figure is omitted`);
    return null;
  }
  return pid;
}
const TEMPORAL_PID = pidOption('temporal-pid');
const PG_PID = pidOption('pg-pid');

/** The API child's pid (--api-process), for its CPU time. */
let apiPid: number | null = null;

interface CpuMark {
  at: number;
  /** SQL statements this process sent (pipeline.ts's countStatements). */
  sql: number;
  node: number;
  api: number | null;
  temporal: number | null;
  pg: number | null;
  /** The worker side's counters (relay, in-process apply) and, from a worker child, its CPU, event loop and SQL. */
  worker: WorkerSnapshot;
}
async function cpuMark(h: Pick<Harness, 'worker'>): Promise<CpuMark> {
  const worker = await h.worker.snapshot();
  const u = process.cpuUsage();
  return {
    at: Date.now(),
    sql: sqlStatements.count,
    node: (u.user + u.system) / 1000,
    temporal: TEMPORAL_PID === null ? null : cpuMs(TEMPORAL_PID),
    api: apiPid === null ? null : cpuMs(apiPid),
    pg: PG_PID === null ? null : treeCpuMs(PG_PID),
    worker,
  };
}

/** Busy share of the worker child's event loop between two snapshots. */
function workerElu(a: WorkerSnapshot, b: WorkerSnapshot): number | null {
  if (!a.process || !b.process) return null;
  const active = b.process.elu.active - a.process.elu.active;
  const total = active + b.process.elu.idle - a.process.elu.idle;
  return total > 0 ? active / total : null;
}

// ---------------------------------------------------------------------------------------------
// The worker side: in this process, or in a child (worker-process.ts)
// ---------------------------------------------------------------------------------------------

interface WorkerSide {
  /** The worker child's pid, or null when the worker side runs in this process. */
  pid: number | null;
  snapshot(): Promise<WorkerSnapshot>;
  /** no-Temporal: resolves true once no batch is being applied (false at the deadline). */
  idle(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** pipeline.ts's startPipeline in this process, sharing its event loop with the load generator. */
async function workerInProcess(cfg: PipelineConfig, db: TestDatabase['db']): Promise<WorkerSide> {
  const p = await startPipeline(cfg, { db, log, clock });
  return {
    pid: null,
    snapshot: async () => ({ ...pipelineSnapshot(p), process: null }),
    idle: (timeoutMs) => (p.inProcess ? p.inProcess.idle(timeoutMs) : Promise.resolve(true)),
    stop: () => p.stop(),
  };
}

/**
 * The same startPipeline in a child process (worker-process.ts), as up.sh runs the worker apart
 * from the API: resolves once the child says its relay listens and its worker runs.
 */
async function workerChild(cfg: PipelineConfig): Promise<WorkerSide> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.MOS_BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.MOS_BENCH_PROFILE_DIR}`] : []),
      '--import',
      'tsx',
      new URL('./worker-process.ts', import.meta.url).pathname,
      JSON.stringify(cfg),
    ],
    {
      env: { ...process.env, DATABASE_POOL_MAX: args['worker-pool'] },
      // The child's stdout goes to our stderr: stdout carries the JSON report only.
      stdio: ['ignore', 2, 'inherit', 'ipc'],
    },
  );
  const pending = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();
  let gone: Error | null = null;
  let stopRequested = false;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      gone = new Error(`the worker child exited (${signal ?? `code ${code}`})`);
      if (!stopRequested || code !== 0) say(`warning: ${gone.message}${stopRequested ? ' after SIGTERM' : ' unasked'}`);
      for (const p of pending.values()) p.reject(gone);
      pending.clear();
      r();
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker child was not ready within 180 s')), 180_000);
    child.on('message', (raw) => {
      const m = raw as FromWorker;
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve();
      } else if (m.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`the worker child failed to start: ${m.message}`));
      } else {
        pending.get(m.id)?.resolve(m);
        pending.delete(m.id);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(gone!);
    });
  });
  let nextId = 0;
  const request = (msg: WorkerRequest) =>
    new Promise<FromWorker>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...msg, id } as ToWorker);
    });
  const stop = async () => {
    stopRequested = true;
    if (!gone) child.kill('SIGTERM');
    const timeout = sleep(60_000).then(() => 'timeout' as const);
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      say('warning: the worker child did not exit within 60 s of SIGTERM; killing it');
      child.kill('SIGKILL');
      await exited;
    }
  };
  try {
    await ready;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    pid: child.pid ?? null,
    async snapshot() {
      const m = await request({ type: 'snapshot' });
      if (m.type !== 'snapshot') throw new Error(`unexpected answer from the worker child: ${m.type}`);
      return m.snapshot;
    },
    async idle(timeoutMs) {
      const m = await request({ type: 'idle', timeoutMs });
      if (m.type !== 'idle') throw new Error(`unexpected answer from the worker child: ${m.type}`);
      return m.idle;
    },
    stop,
  };
}

// ---------------------------------------------------------------------------------------------
// Harness: database, API, and the worker side (Temporal runtime or relay + in-process dispatcher)
// ---------------------------------------------------------------------------------------------

interface Sent {
  eventId?: string;
  t200?: number;
  ingestMs?: number;
  status?: number;
}

interface Harness {
  mode: Mode;
  tdb: TestDatabase;
  /** Relay + Temporal worker, or relay + in-process apply; in this process or a child. */
  worker: WorkerSide;
  taskQueue: string | null;
  temporal: (() => Promise<Client>) | null;
  post(body: Buffer, i: number): Promise<Sent>;
  counts(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

const relayOptions = () => ({ batchSize: Number(args.batch), lanes: Number(args.lanes), pollIntervalMs: Number(args.poll), eagerStart: !args['no-eager'] });
const workerTuning = () => ({ activities: Number(args.activities), cachedWorkflows: Number(args.cached), workflowTasks: Number(args['wf-tasks']) });

/** What the worker side runs with (plain data: a worker child gets it as JSON). */
function pipelineConfig(mode: Mode, databaseUrl: string, env: Env, taskQueue: string | null): PipelineConfig {
  return {
    mode,
    databaseUrl,
    temporal: mode === 'temporal' ? { address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE, taskQueue: taskQueue! } : null,
    relay: relayOptions(),
    worker: workerTuning(),
    effects: args.effects as PipelineConfig['effects'],
  };
}
const unfinished = (c: Record<string, number>) => (c.pending ?? 0) + (c.dispatched ?? 0) + (c.retrying ?? 0);

const masterKey = randomBytes(32);

async function apiInProcess(deps: Parameters<typeof createApiApp>[0]): Promise<{ port: number; close(): Promise<void> }> {
  const server = createApiApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The real Express API app in a child process (ingest-server.ts), over the bench's database. */
async function apiChild(databaseUrl: string): Promise<{ port: number; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./ingest-server.ts', import.meta.url).pathname, 'express'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, MOS_MASTER_KEY: masterKey.toString('hex'), DATABASE_POOL_MAX: '10', WEBHOOK_INGRESS_CACHE_MS: '60000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    void exited.then(() => reject(new Error(`the API child exited with ${child.exitCode}`)));
  });
  apiPid = child.pid ?? null;
  return {
    port,
    async close() {
      apiPid = null;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function startHarness(mode: Mode): Promise<Harness> {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (source the env file infra/bench/stack.sh prints)');
  if (mode === 'temporal' && !process.env.TEMPORAL_ADDRESS) throw new Error('set TEMPORAL_ADDRESS (or run --no-temporal)');
  await prepareTemplateDatabase();
  const tdb = await createTestDatabase({ max: 20 });
  countStatements(tdb.pool);
  const env = loadEnv({ ...process.env, MOS_ENV: 'test', LOG_LEVEL: 'warn', WEBHOOK_INGRESS_CACHE_MS: '60000' });
  const temporalClient = lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE });
  const deps = {
    db: tdb.db,
    env,
    log,
    clock,
    vault: createVault(masterKey, env),
    provider: providerClientFromEnv(env),
    temporal: temporalClient,
  };
  const secret = randomBytes(16).toString('hex');
  const { workspace } = await upsertWorkspace(tdb.db, 'bench', { wabaId: '102290129340398', phoneNumberId: '106540352242922' });
  await setProviderIngressWorkspace(tdb.db, workspace.id);
  await deps.vault.set(tdb.db, workspace.id, 'webhook-signing-secret', secret);

  const taskQueue = mode === 'temporal' ? `bench-${randomBytes(4).toString('hex')}` : null;
  let api: { port: number; close(): Promise<void> } | null = null;
  let worker: WorkerSide | null = null;

  async function post(body: Buffer, i: number): Promise<Sent> {
    const rec: Sent = {};
    const t0 = Date.now();
    try {
      if (args.direct) {
        // The ingress's transaction shape without HTTP: event row, job row, NOTIFY on commit.
        const { webhookEventId } = await tdb.db.transaction((tx) => storeTestWebhookJob(tx, workspace.id, { body, receivedAt: new Date(t0) }));
        rec.status = 200;
        rec.eventId = webhookEventId;
      } else {
        const res = await fetch(`http://127.0.0.1:${api!.port}/webhooks/messaging`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signProviderBody(secret, body), 'x-provider-delivery-id': `bench-${i}-${t0}` },
          body,
        });
        const json = (await res.json()) as { webhookEventId?: string };
        rec.status = res.status;
        rec.eventId = json.webhookEventId;
      }
      rec.t200 = Date.now();
      rec.ingestMs = rec.t200 - t0;
    } catch (err) {
      rec.status = -1;
      log.warn({ err: (err as Error).message }, 'request failed');
    }
    return rec;
  }

  const counts = async () => {
    const r = await tdb.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM outbox_jobs GROUP BY status`);
    return Object.fromEntries(r.rows.map((x) => [x.status, x.n])) as Record<string, number>;
  };

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await worker?.stop();
      await api?.close();
      await temporalClient.close();
      await tdb.drop();
    })());

  // Whatever started is stopped again if a later step (or the warm-up) fails.
  try {
    api = args['api-process'] && !args.direct ? await apiChild(tdb.url) : await apiInProcess(deps);
    const cfg = pipelineConfig(mode, tdb.url, env, taskQueue);
    worker = args['worker-process'] ? await workerChild(cfg) : await workerInProcess(cfg, tdb.db);
    const harness: Harness = { mode, tdb, worker, taskQueue, temporal: mode === 'temporal' ? temporalClient.get : null, post, counts, stop };

    // Warm-up: bundle caches, connections and JIT, then start from an empty queue and no open run.
    const warm = bodyStream({ mix: MIX, phonePrefix: '1651', conversations: Number(args.conversations), fixture: args.fixture });
    await Promise.all(Array.from({ length: 20 }, (_, i) => post(warm(), -1 - i)));
    const deadline = Date.now() + 60_000;
    while (unfinished(await counts()) > 0) {
      if (Date.now() > deadline) throw new Error('warm-up did not finish within 60 s');
      await sleep(100);
    }
    await runsSettled(harness, new Date(0), 30_000);
    return harness;
  } catch (err) {
    await stop().catch((e: unknown) => say(`warning: cleaning up after a failed start: ${(e as Error).message}`));
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Temporal: runs started on the bench's task queue
// ---------------------------------------------------------------------------------------------

interface RunCensus {
  batchRuns: number;
  webhookRuns: number;
  otherRuns: number;
  open: number;
  historyEvents: number;
  batchRunHistoryEvents: number;
}

async function census(h: Harness, since: Date): Promise<RunCensus> {
  const client = await h.temporal!();
  const c: RunCensus = { batchRuns: 0, webhookRuns: 0, otherRuns: 0, open: 0, historyEvents: 0, batchRunHistoryEvents: 0 };
  const query = `TaskQueue = '${h.taskQueue}' AND StartTime >= '${since.toISOString()}'`;
  for await (const wf of client.workflow.list({ query, pageSize: 1000 })) {
    if (wf.type === WEBHOOK_BATCH_WORKFLOW_TYPE) {
      c.batchRuns++;
      c.batchRunHistoryEvents += wf.historyLength;
    } else if (wf.type === WEBHOOK_WORKFLOW_TYPE) c.webhookRuns++;
    else c.otherRuns++;
    if (wf.status.name === 'RUNNING') c.open++;
    c.historyEvents += wf.historyLength;
  }
  return c;
}

/** Waits until no run started since `since` is open (visibility catches up just after the close). */
async function runsSettled(h: Harness, since: Date, timeoutMs: number): Promise<boolean> {
  if (h.mode !== 'temporal') return h.worker.idle(timeoutMs);
  const client = await h.temporal!();
  const deadline = Date.now() + timeoutMs;
  const query = `TaskQueue = '${h.taskQueue}' AND StartTime >= '${since.toISOString()}' AND ExecutionStatus = 'Running'`;
  while (Date.now() < deadline) {
    const { count } = await client.workflow.count(query);
    if (count === 0) return true;
    await sleep(250);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// One load: open loop at `rate` for `durationS`, then drain
// ---------------------------------------------------------------------------------------------

const BUCKETS = ['1', '2-5', '6-10', '11-25', '26-50'] as const;

async function runLoad(h: Harness, next: () => Buffer, rate: number, durationS: number, drainS: number, seq: { i: number }) {
  // The Temporal server's idle CPU (timers, pollers), to tell load from background.
  let idleTemporalMsPerS: number | null = null;
  if (h.mode === 'temporal' && TEMPORAL_PID !== null) {
    const a = { at: Date.now(), cpu: cpuMs(TEMPORAL_PID) };
    await sleep(2_000);
    const b = { at: Date.now(), cpu: cpuMs(TEMPORAL_PID) };
    idleTemporalMsPerS = a.cpu === null || b.cpu === null ? null : ((b.cpu - a.cpu) * 1000) / (b.at - a.at);
  }
  const cpu0 = await cpuMark(h);
  const elu0 = performance.eventLoopUtilization();

  const sent: Sent[] = [];
  const timeline: { t: number; pending: number; dispatched: number; retrying: number; completed: number }[] = [];
  const loadStart = Date.now();
  const loadStartDate = new Date(loadStart);
  const sampler = setInterval(() => {
    void h.counts().then((c) =>
      timeline.push({
        t: Date.now() - loadStart,
        pending: c.pending ?? 0,
        dispatched: c.dispatched ?? 0,
        retrying: c.retrying ?? 0,
        completed: c.completed ?? 0,
      }),
    );
  }, 500);
  const inflight: Promise<void>[] = [];
  const total = Math.round(rate * durationS);
  for (let k = 0; k < total; k++) {
    const due = loadStart + (k * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 1) await sleep(wait);
    const body = next();
    const i = seq.i++;
    inflight.push(h.post(body, i).then((rec) => void sent.push(rec)));
  }
  await Promise.all(inflight);
  const loadEnd = Date.now();
  const eluLoad = performance.eventLoopUtilization(elu0).utilization;
  const workerAtLoadEnd = h.worker.pid === null ? null : await h.worker.snapshot();

  // Drain: when does pending reach 0, and when is every job finished (none pending, dispatched or handed off)?
  let queueZeroAt: number | null = null;
  let drainedAt: number | null = null;
  let peakPending = Math.max(0, ...timeline.map((s) => s.pending));
  while (Date.now() - loadEnd < drainS * 1000) {
    const c = await h.counts();
    peakPending = Math.max(peakPending, c.pending ?? 0);
    if (queueZeroAt === null && (c.pending ?? 0) === 0) queueZeroAt = Date.now();
    if (unfinished(c) === 0) {
      drainedAt = Date.now();
      break;
    }
    await sleep(50);
  }
  clearInterval(sampler);
  // The window for CPU figures ends when every run of the load has closed too (its last
  // workflow task completes after the jobs are finished).
  const settled = drainedAt !== null ? await runsSettled(h, loadStartDate, 30_000) : false;
  const cpu1 = await cpuMark(h);
  const elu = performance.eventLoopUtilization(elu0).utilization;

  const ids = sent.filter((s) => s.status === 200 && s.eventId).map((s) => s.eventId!);
  const deliveries = await h.tdb.pool.query<{ webhook_event_id: string; status: string; processed_at: Date }>(
    `SELECT webhook_event_id, status, processed_at FROM webhook_deliveries WHERE webhook_event_id = ANY($1)`,
    [ids],
  );
  const byEvent = new Map(deliveries.rows.map((d) => [d.webhook_event_id, d]));
  const e2e: number[] = [];
  const ingest: number[] = [];
  let failed = 0;
  let missing = 0;
  for (const s of sent) {
    if (s.status !== 200 || !s.eventId) continue;
    ingest.push(s.ingestMs!);
    const d = byEvent.get(s.eventId);
    if (!d) missing++;
    else if (d.status !== 'processed') failed++;
    else e2e.push(d.processed_at.getTime() - s.t200!);
  }
  e2e.sort((a, b) => a - b);
  ingest.sort((a, b) => a - b);
  const finished = e2e.length + failed;
  const perWebhook = (x: number | null) => (x === null || finished === 0 ? null : round(x / finished, 2));

  // The worker side's counters over the window (cumulative in the worker, so steps of a capacity run diff them too).
  const relayBefore = cpu0.worker.relay;
  const stats = cpu1.worker.relay;
  const batches = stats.batches - relayBefore.batches;
  const dispatched = stats.dispatched - relayBefore.dispatched;
  const batchSizes = Object.fromEntries(BUCKETS.map((b) => [b, stats.batchSizes[b] - relayBefore.batchSizes[b]])) as Record<(typeof BUCKETS)[number], number>;
  const workerProcess0 = cpu0.worker.process;
  const workerProcess1 = cpu1.worker.process;

  let temporal = null;
  if (h.mode === 'temporal') {
    const runs = await census(h, loadStartDate);
    const cpu = cpu1.temporal !== null && cpu0.temporal !== null ? cpu1.temporal - cpu0.temporal : null;
    temporal = {
      cpuMsPerWebhook: perWebhook(cpu),
      cpuMsPerWebhookNetOfIdle: cpu === null || idleTemporalMsPerS === null ? null : perWebhook(cpu - (idleTemporalMsPerS * (cpu1.at - cpu0.at)) / 1000),
      idleCpuMsPerS: round(idleTemporalMsPerS ?? NaN),
      historyEventsPerWebhook: perWebhook(runs.historyEvents),
      runsPerWebhook: perWebhook(runs.batchRuns + runs.webhookRuns),
      batchRuns: runs.batchRuns,
      webhookRuns: runs.webhookRuns,
      otherRuns: runs.otherRuns,
      openRunsAtCensus: runs.open,
      historyEventsPerBatchRun: runs.batchRuns ? round(runs.batchRunHistoryEvents / runs.batchRuns) : null,
      runsClosedBeforeCensus: settled,
    };
  }
  const inProcessBefore = cpu0.worker.inProcess;
  const inProcessAfter = cpu1.worker.inProcess;
  const inProcessStats =
    inProcessAfter && inProcessBefore
      ? {
          batches: inProcessAfter.batches - inProcessBefore.batches,
          applyCalls: inProcessAfter.calls - inProcessBefore.calls,
          failedWebhooks: inProcessAfter.failedWebhooks - inProcessBefore.failedWebhooks,
          errors: inProcessAfter.errors - inProcessBefore.errors,
          /**
           * Wall ms of apply calls per webhook attempted in them: a lane applies its batch one
           * webhook after another, so one lane's ceiling is 1000 / this per second.
           */
          applyMsPerWebhook: round((inProcessAfter.applyMs - inProcessBefore.applyMs) / Math.max(1, inProcessAfter.attempted - inProcessBefore.attempted), 2),
        }
      : undefined;

  return {
    config: config(h.mode),
    mode: h.mode,
    loadavg: loadavg().map((x) => +x.toFixed(2)),
    offeredRatePerS: rate,
    durationS,
    requests: { sent: sent.length, ok200: sent.filter((s) => s.status === 200).length, non200: sent.filter((s) => s.status !== 200).length },
    achievedRatePerS: round(sent.length / ((loadEnd - loadStart) / 1000)),
    ingestMs: { p50: pct(ingest, 50), p99: pct(ingest, 99) },
    endToEndMs: { p50: pct(e2e, 50), p99: pct(e2e, 99), max: e2e[e2e.length - 1] ?? NaN, processed: e2e.length, failed, missing },
    queue: {
      peakPending,
      peakDispatched: Math.max(0, ...timeline.map((s) => s.dispatched)),
      zeroAfterLoadMs: queueZeroAt === null ? null : Math.max(0, queueZeroAt - loadEnd),
      allFinishedAfterLoadMs: drainedAt === null ? null : drainedAt - loadEnd,
    },
    relay: {
      batches,
      dispatched,
      batchSizes,
      batchesPerWebhook: dispatched ? round(batches / dispatched, 3) : null,
      meanBatchSize: batches ? round(dispatched / batches) : null,
      startFailures: stats.startFailures - relayBefore.startFailures,
      recovered: stats.recovered - relayBefore.recovered,
    },
    inProcess: inProcessStats,
    temporal,
    cpuMsPerWebhook: {
      /**
       * This process: the load generator, plus the API unless --api-process, plus the worker
       * side (relay, worker: workflows + activities, or in-process apply) unless --worker-process.
       */
      benchProcess: perWebhook(cpu1.node - cpu0.node),
      /** The API child (--api-process): ingress only. */
      apiProcess: perWebhook(cpu1.api !== null && cpu0.api !== null ? cpu1.api - cpu0.api : null),
      /** The worker child (--worker-process): relay + Temporal worker + batch apply, or relay + in-process apply. */
      workerProcess: perWebhook(workerProcess0 && workerProcess1 ? workerProcess1.cpuMs - workerProcess0.cpuMs : null),
      postgres: perWebhook(cpu1.pg !== null && cpu0.pg !== null ? cpu1.pg - cpu0.pg : null),
      temporalServer: temporal?.cpuMsPerWebhook ?? null,
    },
    /**
     * Busy share of this process's one event loop over the window (the load generator, and the
     * API and worker side unless they run in children): near 1, the harness itself is the limit,
     * not the pipeline.
     */
    benchEventLoopUtilization: { load: round(eluLoad, 2), window: round(elu, 2) },
    /**
     * The worker child's (--worker-process) main event loop (relay, activities, Temporal worker
     * glue; workflow code runs on the SDK's worker threads and is not in it).
     */
    workerEventLoopUtilization: workerAtLoadEnd
      ? { load: round(workerElu(cpu0.worker, workerAtLoadEnd) ?? NaN, 2), window: round(workerElu(cpu0.worker, cpu1.worker) ?? NaN, 2) }
      : null,
    /** SQL statements this process sent per webhook (see countStatements): round trips, the latency floor of a serial apply. */
    sqlStatementsPerWebhook: perWebhook(cpu1.sql - cpu0.sql),
    /** The same for the worker child (--worker-process); the bench process's figure is then the ingress (in process) and sampling only. */
    workerSqlStatementsPerWebhook: perWebhook(workerProcess0 && workerProcess1 ? workerProcess1.sqlStatements - workerProcess0.sqlStatements : null),
    windowMs: cpu1.at - cpu0.at,
    timeline: args.json ? timeline : undefined,
  };
}

type Report = Awaited<ReturnType<typeof runLoad>>;

const pctOf = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);

function summarize(r: Report): string[] {
  const e = r.endToEndMs;
  const q = r.queue;
  const t = r.temporal;
  const hist = BUCKETS.map((b) => `${b}:${r.relay.batchSizes[b]}`).join(' ');
  const lines = [
    `[${r.mode}] offered ${r.offeredRatePerS}/s for ${r.durationS} s (achieved ${r.achievedRatePerS}/s, ${r.requests.sent} requests, ${r.requests.non200} non-200), load avg ${r.loadavg.join(' ')}`,
    `  ingest p50/p99                 ${r.ingestMs.p50} / ${r.ingestMs.p99} ms`,
    `  200->processedAt p50/p99/max   ${e.p50} / ${e.p99} / ${e.max} ms`,
    `  processed/failed/missing       ${e.processed} / ${e.failed} / ${e.missing}`,
    `  queue: pending 0 after load    ${q.zeroAfterLoadMs ?? 'never'} ms; all finished after ${q.allFinishedAfterLoadMs ?? 'never (within the drain window)'} ms; peak pending ${q.peakPending}, peak dispatched ${q.peakDispatched}`,
    `  batches ${r.relay.batches} for ${r.relay.dispatched} webhooks (${r.relay.batchesPerWebhook} per webhook, mean size ${r.relay.meanBatchSize}); sizes ${hist}`,
  ];
  if (t) {
    lines.push(
      `  Temporal CPU ${t.cpuMsPerWebhook ?? 'n/a (no --temporal-pid)'} ms/webhook (net of idle ${t.cpuMsPerWebhookNetOfIdle ?? 'n/a'}; idle ${t.idleCpuMsPerS ?? 'n/a'} ms/s); history ${t.historyEventsPerWebhook} events/webhook (${t.historyEventsPerBatchRun} per batch run); runs ${t.runsPerWebhook}/webhook (${t.batchRuns} batch + ${t.webhookRuns} per-webhook${t.openRunsAtCensus ? `, ${t.openRunsAtCensus} still open` : ''})`,
    );
  }
  const benchHolds = [r.config.direct || r.config.apiProcess ? null : 'ingress', r.config.workerProcess ? null : 'worker side'].filter(Boolean).join(' and ');
  lines.push(
    `  SQL statements per webhook: bench process ${r.sqlStatementsPerWebhook ?? 'n/a'}${benchHolds ? ` (${benchHolds} included)` : ''}` +
      (r.config.workerProcess ? `, worker process ${r.workerSqlStatementsPerWebhook ?? 'n/a'}` : ''),
  );
  if (r.inProcess) {
    lines.push(
      `  in-process: ${r.inProcess.batches} batches, ${r.inProcess.applyCalls} apply calls, ${r.inProcess.applyMsPerWebhook} ms per webhook inside a call, ${r.inProcess.failedWebhooks} failed webhooks, ${r.inProcess.errors} errors`,
    );
  }
  const w = r.workerEventLoopUtilization;
  lines.push(
    `  CPU ms/webhook: bench process ${r.cpuMsPerWebhook.benchProcess ?? 'n/a'} (its event loop ${pctOf(r.benchEventLoopUtilization.load)} busy during the load, ${pctOf(r.benchEventLoopUtilization.window)} over load + drain)` +
      (r.cpuMsPerWebhook.apiProcess !== null ? `, API process ${r.cpuMsPerWebhook.apiProcess}` : '') +
      (r.config.workerProcess
        ? `, worker process ${r.cpuMsPerWebhook.workerProcess ?? 'n/a'} (its event loop ${pctOf(w?.load ?? null)} busy during the load, ${pctOf(w?.window ?? null)} over load + drain)`
        : '') +
      `, PostgreSQL ${r.cpuMsPerWebhook.postgres ?? 'n/a (no --pg-pid)'}, Temporal server ${r.cpuMsPerWebhook.temporalServer ?? 'n/a'}`,
  );
  return lines;
}

function config(mode: Mode) {
  return {
    mode,
    mix: MIX,
    fixture: MIX === 'realistic' ? undefined : args.fixture,
    conversations: MIX === 'realistic' ? Number(args.conversations) : undefined,
    direct: args.direct,
    apiProcess: args['api-process'] && !args.direct,
    workerProcess: args['worker-process'],
    workerPool: args['worker-process'] ? Number(args['worker-pool']) : undefined,
    effects: args.effects,
    relay: { ...relayOptions(), eagerStart: mode === 'temporal' ? relayOptions().eagerStart : undefined },
    worker: mode === 'temporal' ? workerTuning() : undefined,
    temporalPid: TEMPORAL_PID,
    pgPid: PG_PID,
  };
}

// ---------------------------------------------------------------------------------------------
// Capacity: step the rate until the tail or the drain gives out
// ---------------------------------------------------------------------------------------------

async function capacity(mode: Mode) {
  const h = await startHarness(mode);
  const next = bodyStream({ mix: MIX, phonePrefix: '1650', conversations: Number(args.conversations), fixture: args.fixture });
  const seq = { i: 0 };
  const steps: (Report & { pass: boolean; why: string | null })[] = [];
  let highest: number | null = null;
  let stoppedBecause = `--max-steps ${args['max-steps']} reached: no limit found`;
  try {
    let rate = Number(args.start);
    for (let n = 0; n < Number(args['max-steps']); n++) {
      const r = await runLoad(h, next, Math.round(rate), Number(args['step-duration']), Number(args['step-drain']), seq);
      const why =
        r.requests.non200 > 0
          ? `${r.requests.non200} non-200`
          : r.queue.allFinishedAfterLoadMs === null || r.endToEndMs.missing + r.endToEndMs.failed > 0
            ? `not all processed within ${args['step-drain']} s (${r.endToEndMs.processed}/${r.requests.ok200})`
            : r.endToEndMs.p99 >= Number(args['p99-limit'])
              ? `p99 ${r.endToEndMs.p99} ms >= ${args['p99-limit']} ms`
              : null;
      steps.push({ ...r, pass: why === null, why });
      say(
        `[${mode} capacity] ${r.offeredRatePerS}/s: achieved ${r.achievedRatePerS}/s, e2e p50/p99 ${r.endToEndMs.p50}/${r.endToEndMs.p99} ms, ` +
          `finished ${r.queue.allFinishedAfterLoadMs ?? 'never'} ms after load, batches/webhook ${r.relay.batchesPerWebhook}` +
          (r.temporal ? `, Temporal ${r.temporal.cpuMsPerWebhook ?? 'n/a'} ms/webhook, ${r.temporal.historyEventsPerWebhook} events/webhook` : '') +
          ` -> ${why ? `FAIL (${why})` : 'pass'}`,
      );
      if (why) {
        stoppedBecause = `${r.offeredRatePerS}/s failed: ${why}`;
        break;
      }
      highest = r.offeredRatePerS;
      rate *= Number(args.factor);
    }
  } finally {
    await h.stop();
  }
  return {
    config: config(mode),
    highestSustainedRatePerS: highest,
    stoppedBecause,
    steps: steps.map((s) => ({ ...s, config: undefined, timeline: undefined })),
  };
}

async function main(): Promise<void> {
  if (args['no-temporal'] && args['only-temporal']) throw new Error('--no-temporal and --only-temporal exclude each other');
  if (args['no-eager'] && args['no-temporal']) say('note: --no-eager has no effect with --no-temporal (no runs are started)');
  if (args['worker-process'] && args.direct) say('note: --direct inserts from this process; the worker side still runs in the child');
  if (args.capacity) {
    const modes: Mode[] = args['no-temporal'] ? ['no-temporal'] : args['only-temporal'] ? ['temporal'] : ['temporal', 'no-temporal'];
    const results: Partial<Record<Mode, Awaited<ReturnType<typeof capacity>>>> = {};
    for (const mode of modes) results[mode] = await capacity(mode);
    const t = results.temporal?.highestSustainedRatePerS;
    const b = results['no-temporal']?.highestSustainedRatePerS;
    const ratio = t && b ? round(t / b, 2) : null;
    say(
      `capacity (p99 < ${args['p99-limit']} ms, all processed within ${args['step-drain']} s, ${args['step-duration']} s steps from ${args.start}/s x${args.factor}):`,
    );
    for (const mode of modes) say(`  ${mode}: highest sustained ${results[mode]!.highestSustainedRatePerS ?? 'none'}/s (${results[mode]!.stoppedBecause})`);
    if (modes.length === 2) say(`  Temporal / no-Temporal: ${ratio ?? 'n/a'}`);
    console.log(JSON.stringify({ capacity: results, ratioTemporalToNoTemporal: ratio }, null, args.json ? 2 : undefined));
    return;
  }
  const mode: Mode = args['no-temporal'] ? 'no-temporal' : 'temporal';
  const h = await startHarness(mode);
  try {
    const r = await runLoad(
      h,
      bodyStream({ mix: MIX, phonePrefix: '1650', conversations: Number(args.conversations), fixture: args.fixture }),
      Number(args.rate),
      Number(args.duration),
      Number(args['drain-timeout']),
      {
        i: 0,
      },
    );
    for (const line of summarize(r)) say(line);
    console.log(JSON.stringify(r, null, args.json ? 2 : undefined));
  } finally {
    await h.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
