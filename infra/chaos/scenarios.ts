/**
 * The fault scenarios. Each runs the same shape (a broadcast to every contact, a steady load of
 * signed provider webhooks, one fault injected mid-load, then a drain) and the same checks,
 * plus its own: what the ingress may answer while the fault lasts, and what the fault must
 * have done (jobs in flight at the kill, a queue that grew, 503s while PostgreSQL was down).
 */
import { bodyStream } from '../bench/webhook-bodies';
import { sleep } from '../bench/send-stack';
import type { SimStatsSnapshot as SimStats } from '../../packages/provider/src/simulator/index';
import type { Stack } from './harness';
import { startLoad, type Delivery } from './load';
import { startPostgres, startTemporal, stopPostgres, stopTemporal } from './stack-control';
import { countBroadcast, countDeliveries, drain, openJobs, startBroadcast, type BroadcastCounts, type DeliveryCounts } from './verify';

export interface Profile {
  label: 'short' | 'full';
  rate: number;
  loadS: number;
  temporalOutageS: number;
  postgresOutageS: number;
  drainTimeoutS: number;
}

export const PROFILES: Record<Profile['label'], Profile> = {
  short: { label: 'short', rate: 40, loadS: 15, temporalOutageS: 8, postgresOutageS: 5, drainTimeoutS: 180 },
  full: { label: 'full', rate: 100, loadS: 60, temporalOutageS: 30, postgresOutageS: 20, drainTimeoutS: 300 },
};

export interface Check {
  what: string;
  ok: boolean;
  detail?: string;
}

export interface ScenarioReport {
  name: string;
  fault: string;
  deliveries: DeliveryCounts;
  broadcast: BroadcastCounts | null;
  drainMs: number | null;
  peakQueue: number;
  notes: Record<string, unknown>;
  checks: Check[];
}

const check = (what: string, ok: boolean, detail?: unknown): Check => ({ what, ok, ...(detail === undefined ? {} : { detail: JSON.stringify(detail) }) });

interface FaultContext {
  stack: Stack;
  profile: Profile;
  /** ms since the load started. */
  elapsed(): number;
  notes: Record<string, unknown>;
}

export interface LoadScenario {
  name: string;
  fault: string;
  /** Injects the fault while the load runs; returns once it is over (the servers back). */
  inject(ctx: FaultContext): Promise<void>;
  /** Which answers the ingress may give; anything else fails the scenario. */
  allowedAnswers: (string | number)[];
  extraChecks?(r: ScenarioReport, deliveries: Delivery[]): Check[];
  /** Before the load: e.g. the simulator's faults. */
  setup?(stack: Stack): Promise<void>;
}

async function waitUntil(ctx: FaultContext, ms: number): Promise<void> {
  while (ctx.elapsed() < ms) await sleep(50);
}

export const workerKill: LoadScenario = {
  name: 'worker SIGKILL mid-batch',
  fault: 'the worker killed with SIGKILL while a batch is in flight, a new one started',
  allowedAnswers: [200],
  async inject(ctx) {
    await waitUntil(ctx, (ctx.profile.loadS * 1000) / 3);
    // Mid-batch: a batch is claimed and dispatched to Temporal, not yet completed.
    const pool = ctx.stack.tdb.pool;
    let inFlight = 0;
    for (let i = 0; i < 200 && inFlight === 0; i++) {
      inFlight = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_jobs WHERE status IN ('dispatched', 'retrying')`)).rows[0]!.n;
      if (inFlight === 0) await sleep(20);
    }
    const victim = ctx.stack.workers[ctx.stack.workers.length - 1]!;
    victim.kill();
    ctx.notes.jobsInFlightAtKill = inFlight;
    const t = Date.now();
    await ctx.stack.startWorker();
    ctx.notes.newWorkerReadyMs = Date.now() - t;
  },
  extraChecks: (r) => [check('jobs were in flight when the worker died', Number(r.notes.jobsInFlightAtKill) > 0, r.notes.jobsInFlightAtKill)],
};

export const temporalOutage: LoadScenario = {
  name: 'Temporal stopped',
  fault: 'the Temporal server stopped, then restarted on its data',
  allowedAnswers: [200],
  async inject(ctx) {
    await waitUntil(ctx, 3000);
    const before = await openJobs(ctx.stack);
    await stopTemporal();
    const t = Date.now();
    await sleep(ctx.profile.temporalOutageS * 1000);
    ctx.notes.queueBeforeOutage = before;
    ctx.notes.queueAtRestart = await openJobs(ctx.stack);
    ctx.notes.outageMs = Date.now() - t;
    startTemporal();
    ctx.notes.downMs = Date.now() - t;
  },
  extraChecks: (r) => [
    check(
      'the queue grew while Temporal was down',
      Number(r.notes.queueAtRestart) > Number(r.notes.queueBeforeOutage) + 10,
      `${String(r.notes.queueBeforeOutage)} -> ${String(r.notes.queueAtRestart)}`,
    ),
  ],
};

export const postgresOutage: LoadScenario = {
  name: 'PostgreSQL stopped',
  fault: 'PostgreSQL stopped as by a crash (pg_ctl -m immediate), restarted with WAL recovery',
  allowedAnswers: [200, 503],
  async inject(ctx) {
    await waitUntil(ctx, 3000);
    stopPostgres();
    const t = Date.now();
    await sleep(ctx.profile.postgresOutageS * 1000);
    startPostgres();
    ctx.notes.downMs = Date.now() - t;
  },
  extraChecks: (r, deliveries) => {
    const unavailable = deliveries.filter((d) => d.status === 503).length;
    return [check('the ingress answered 503 while PostgreSQL was down', unavailable > 0, unavailable)];
  },
};

export const providerFaults: LoadScenario = {
  name: 'provider faults',
  fault: 'the simulator fails sends: 10% 5xx, 5% timeouts, and 130429 x20, 131056 x10 queued',
  allowedAnswers: [200],
  async setup(stack) {
    const post = (path: string, body: unknown) =>
      fetch(`${stack.simUrl}/_sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => {
        if (!r.ok) throw new Error(`simulator ${path}: ${r.status}`);
      });
    await post('faults', { serverErrorShare: 0.1, timeoutShare: 0.05, timeoutMode: 'before_accept', hangMs: 3000 });
    await post('fail-next', { code: 130429, count: 20 });
    await post('fail-next', { code: 131056, count: 10 });
  },
  async inject(ctx) {
    await waitUntil(ctx, ctx.profile.loadS * 1000);
    const { accepted, rejected, rejectionsByCode, timeouts } = (await (await fetch(`${ctx.stack.simUrl}/_sim/stats`)).json()) as SimStats;
    ctx.notes.simulator = { accepted, rejected, rejectionsByCode, timeouts };
    await fetch(`${ctx.stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ serverErrorShare: 0, timeoutShare: 0 }),
    });
  },
  extraChecks: (r) => {
    const byCode = (r.notes.simulator as Pick<SimStats, 'rejectionsByCode'>).rejectionsByCode;
    const serverErrors = (byCode['1'] ?? 0) + (byCode['2'] ?? 0);
    return [
      check('the provider answered the queued 130429 x20 and 131056 x10', (byCode['130429'] ?? 0) >= 20 && (byCode['131056'] ?? 0) >= 10, byCode),
      check('the provider answered sends with 500/503', serverErrors > 0, serverErrors),
    ];
  },
};

/** One scenario under load: the broadcast, the load, the fault, the drain, the counts. */
export async function runLoadScenario(stack: Stack, profile: Profile, s: LoadScenario, phonePrefix: string): Promise<ScenarioReport> {
  await s.setup?.(stack);
  const broadcastId = await startBroadcast(stack, s.name);
  const next = bodyStream({ mix: 'realistic', phonePrefix, conversations: 50 });
  const load = startLoad({ urls: stack.ingressUrls, secret: stack.signingSecret, rate: profile.rate, durationS: profile.loadS, next });
  const t0 = Date.now();
  let peakQueue = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakQueue = Math.max(peakQueue, await openJobs(stack).catch(() => 0));
      await sleep(500);
    }
  })();
  const notes: Record<string, unknown> = {};
  await s.inject({ stack, profile, elapsed: () => Date.now() - t0, notes });
  await load.done;
  const drainMs = await drain(stack, profile.drainTimeoutS * 1000);
  sampling = false;
  await sampler;
  const deliveries = await countDeliveries(stack, load.deliveries);
  const broadcast = await countBroadcast(stack, broadcastId);
  const r: ScenarioReport = { name: s.name, fault: s.fault, deliveries, broadcast, drainMs, peakQueue, notes, checks: [] };
  const allowed = new Set(s.allowedAnswers.map(String));
  const disallowed = Object.entries(deliveries.otherAnswers).filter(([k]) => !allowed.has(k.split(' ')[0]!));
  r.checks = [
    check(`the ingress answered only ${s.allowedAnswers.join(' or ')}`, disallowed.length === 0, Object.fromEntries(disallowed)),
    check('every delivery answered 200 is stored', deliveries.stored === deliveries.answered200, {
      answered200: deliveries.answered200,
      stored: deliveries.stored,
    }),
    check('every stored delivery is processed', deliveries.processed === deliveries.stored - deliveries.duplicates, deliveries.processed),
    check('every inbound message answered 200 has its message row', deliveries.effectsMissing === 0, deliveries.effectsMissing),
    check('no processing failed', deliveries.failed === 0, deliveries.failed),
    check('the queue drained', drainMs !== null, drainMs),
    check('the broadcast completed', broadcast.status === 'completed', broadcast.status),
    check('no broadcast message sent twice', broadcast.sentTwice === 0, broadcast.sentTwice),
    check('no broadcast message skipped', broadcast.skipped === 0, broadcast.skipped),
    ...(s.extraChecks?.(r, load.deliveries) ?? []),
  ];
  return r;
}
