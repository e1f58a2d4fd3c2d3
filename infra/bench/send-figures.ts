/**
 * send-governor.ts's figures, read once the broadcast completed: the database counts at
 * completion, the drain of the status webhooks, the simulator's counters and log, the Temporal
 * census, the workers' logs, CPU per process; and the table printed from them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { TestDatabase } from '../../packages/db/src/testing/index';
import type { PhoneNumberStats, SimMessage, SimStatsSnapshot } from '../../packages/provider/src/simulator/index';
import {
  acceptanceCheck,
  census,
  cpuWhileSending,
  longestPause,
  maxInSlidingSecond,
  round,
  scanWorkerLogs,
  type Client,
  type Counts,
  type CpuMark,
  type TimelinePoint,
} from './send-report';

export type { Counts, CpuMark, TimelinePoint };
import { cpuMs, treeCpuMs } from './proc-cpu';
import { PHONE_NUMBER_ID, sleep, type Service } from './send-stack';

export function cpuMark(p: { workers: Service[]; api: Service; simulator: Service; temporalPid: number | null; pgPid: number | null }): CpuMark {
  const u = process.cpuUsage();
  return {
    at: Date.now(),
    workers: p.workers.map((w) => w.cpuMs()),
    api: p.api.cpuMs(),
    simulator: p.simulator.cpuMs(),
    temporal: p.temporalPid === null ? null : cpuMs(p.temporalPid),
    postgres: p.pgPid === null ? null : treeCpuMs(p.pgPid),
    bench: (u.user + u.system) / 1000,
  };
}

export interface KillRecord {
  atMs: number;
  acceptedAtKill: number;
  /** Messages `sending` right after the kill: what the dead worker had claimed. */
  heldSending: string[];
  newWorkerRunningMs: number | null;
}

export interface RunContext {
  n: number;
  rate: number;
  json: boolean;
  drainTimeoutS: number;
  config: Record<string, unknown>;
  pool: TestDatabase['pool'];
  simUrl: string;
  apiUrl: string;
  apiKey: string;
  broadcastId: string;
  taskQueue: string;
  t0: number;
  createdMs: number;
  /** When the broadcast completed, or when the bench gave up waiting (`timedOut`). */
  completedAt: number;
  timedOut: boolean;
  workers: Service[];
  cpu0: CpuMark;
  cpu1: CpuMark;
  load0: number[];
  deadlocks0: number;
  kill: KillRecord | null;
  timeline: TimelinePoint[];
  client: Client;
}

export const countsOf = async (pool: TestDatabase['pool'], broadcastId: string): Promise<Counts> => {
  const r = await pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM outbound_messages WHERE broadcast_id = $1 GROUP BY status`,
    [broadcastId],
  );
  return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
};

export const deadlocks = async (pool: TestDatabase['pool']): Promise<number> =>
  (await pool.query<{ n: number }>(`SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`)).rows[0]!.n;

const getJson = async <T>(url: string, headers?: Record<string, string>): Promise<T> => (await (await fetch(url, { headers })).json()) as T;

export async function simNumberStats(simUrl: string): Promise<PhoneNumberStats> {
  const s = await getJson<SimStatsSnapshot>(`${simUrl}/_sim/stats?phoneNumberId=${PHONE_NUMBER_ID}`);
  return s.phoneNumbers[PHONE_NUMBER_ID] ?? ({ accepted: 0 } as PhoneNumberStats);
}

export async function collectFigures(c: RunContext) {
  const { pool, broadcastId, t0, n } = c;
  const load1 = loadavg();
  const atCompletion = await countsOf(pool, broadcastId);
  const lastSent = (await pool.query<{ t: Date | null }>(`SELECT max(sent_at) AS t FROM outbound_messages WHERE broadcast_id = $1`, [broadcastId])).rows[0]?.t;
  const view = await getJson<{ broadcast: { status: string; counts: Counts } }>(`${c.apiUrl}/v1/broadcasts/${broadcastId}`, { 'x-api-key': c.apiKey });

  // Drain: every status webhook delivered by the simulator and processed by the pipeline.
  const drainStart = Date.now();
  let drainedMs: number | null = null;
  while (Date.now() - drainStart < c.drainTimeoutS * 1000) {
    const s = await getJson<SimStatsSnapshot>(`${c.simUrl}/_sim/stats`);
    const jobs = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_jobs WHERE status IN ('pending', 'dispatched', 'retrying')`);
    if (s.statuses.queued === 0 && s.statuses.envelopesPending === 0 && jobs.rows[0]!.n === 0) {
      drainedMs = Date.now() - drainStart;
      break;
    }
    await sleep(500);
  }
  await sleep(1000); // visibility catches up with the last batch runs
  const afterDrain = await countsOf(pool, broadcastId);
  const stats = await simNumberStats(c.simUrl);
  const simAll = await getJson<SimStatsSnapshot>(`${c.simUrl}/_sim/stats`);
  const log = (
    await getJson<{ messages: Pick<SimMessage, 'callbackData' | 'acceptedAt'>[] }>(`${c.simUrl}/_sim/messages?limit=100000&phoneNumberId=${PHONE_NUMBER_ID}`)
  ).messages;
  const acceptedAt = log.map((m) => Date.parse(m.acceptedAt));
  const ids = (await pool.query<{ id: string }>(`SELECT id FROM outbound_messages WHERE broadcast_id = $1`, [broadcastId])).rows.map((r) => r.id);
  const dbDup = (
    await pool.query<{ retried: number; sent_twice: number }>(
      `SELECT count(*) FILTER (WHERE attempts > 1)::int AS retried,
              count(*) FILTER (WHERE (SELECT count(*) FROM jsonb_array_elements(status_history) e WHERE e->>'status' = 'sent') > 1)::int AS sent_twice
         FROM outbound_messages WHERE broadcast_id = $1`,
      [broadcastId],
    )
  ).rows[0]!;
  // How far the status webhooks' processing lags (stored by the ingress -> applied by the pipeline):
  // a send held as `sending` is requeued after 60 s unless its status webhook was applied by then.
  const lag = (
    await pool.query<{ jobs: number; p50: number | null; p95: number | null; max: number | null; open: number }>(
      `SELECT count(*)::int AS jobs, count(*) FILTER (WHERE completed_at IS NULL)::int AS open,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - created_at)) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - created_at)) AS p95,
              max(extract(epoch FROM completed_at - created_at))::float AS max
         FROM outbox_jobs WHERE created_at >= $1`,
      [new Date(t0)],
    )
  ).rows[0]!;
  const runs = await census(c.client, c.taskQueue);
  const deadlocksInRun = (await deadlocks(pool)) - c.deadlocks0;
  const workerLogs = scanWorkerLogs(c.workers.map((w) => readFileSync(w.logFile, 'utf8')));

  const idealS = n / c.rate;
  const totalS = (c.completedAt - t0) / 1000;
  const first = stats.firstAcceptedAt ? Date.parse(stats.firstAcceptedAt) : NaN;
  const last = stats.lastAcceptedAt ? Date.parse(stats.lastAcceptedAt) : NaN;
  const { cpu0, cpu1 } = c;
  const windowS = (cpu1.at - cpu0.at) / 1000;
  const sec = (a: number | null, b: number | null) => (a === null || b === null ? null : round((b - a) / 1000, 2));
  const workerCpuS = round(cpu1.workers.reduce((sum, x, i) => sum + x - (cpu0.workers[i] ?? 0), 0) / 1000, 2);
  const cpuS: Record<string, number | null> = {
    worker: workerCpuS,
    api: sec(cpu0.api, cpu1.api),
    simulator: sec(cpu0.simulator, cpu1.simulator),
    temporal: sec(cpu0.temporal, cpu1.temporal),
    postgres: sec(cpu0.postgres, cpu1.postgres),
    bench: sec(cpu0.bench, cpu1.bench),
  };
  const cpuTotal = Object.values(cpuS).reduce<number>((a, b) => a + (b ?? 0), 0);

  let kill = null;
  if (c.kill) {
    const k = c.kill;
    const killAt = t0 + k.atMs;
    const held = new Set(k.heldSending);
    const heldLog = log.filter((l) => l.callbackData && held.has(l.callbackData));
    const heldAfter = heldLog.map((l) => Date.parse(l.acceptedAt)).filter((a) => a > killAt);
    // Sending resumed with the first acceptance of a message the dead worker had not claimed.
    const resumed = log
      .filter((l) => !(l.callbackData && held.has(l.callbackData)))
      .map((l) => Date.parse(l.acceptedAt))
      .filter((a) => a > killAt);
    kill = {
      atS: round(k.atMs / 1000, 2),
      acceptedAtKill: k.acceptedAtKill,
      newWorkerRunningAfterS: k.newWorkerRunningMs === null ? null : round(k.newWorkerRunningMs / 1000, 2),
      sendingResumedAfterS: resumed.length ? round((Math.min(...resumed) - killAt) / 1000, 2) : null,
      heldAsSending: k.heldSending.length,
      heldAcceptedBeforeKill: heldLog.filter((l) => Date.parse(l.acceptedAt) <= killAt).length,
      heldSentAfterKill: heldAfter.length,
      heldSentAfterKillFromS: heldAfter.length ? round((Math.min(...heldAfter) - t0) / 1000, 2) : null,
      heldSentAfterKillToS: heldAfter.length ? round((Math.max(...heldAfter) - t0) / 1000, 2) : null,
    };
  }

  return {
    config: c.config,
    loadavg: { before: c.load0.map((x) => round(x, 2)), atCompletion: load1.map((x) => round(x, 2)) },
    completed: !c.timedOut,
    time: {
      idealS,
      createToCompletedS: c.timedOut ? null : round(totalS, 2),
      deviationPct: c.timedOut ? null : round(((totalS - idealS) / idealS) * 100, 2),
      createAnsweredMs: c.createdMs,
      createToFirstAcceptS: round((first - t0) / 1000, 2),
      createToLastAcceptS: round((last - t0) / 1000, 2),
      firstToLastAcceptS: round((last - first) / 1000, 2),
      lastAcceptToCompletedS: c.timedOut ? null : round((c.completedAt - last) / 1000, 2),
      lastSentRecordedS: lastSent ? round((new Date(lastSent).getTime() - t0) / 1000, 2) : null,
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
      atCompletion,
      apiView: view.broadcast.counts,
      afterDrain,
      drainedAfterCompletionMs: drainedMs,
      /** Status webhooks (outbox jobs) stored since the start: seconds from stored to applied. */
      statusWebhookLagS: { jobs: lag.jobs, notDone: lag.open, p50: round(lag.p50, 1), p95: round(lag.p95, 1), max: round(lag.max, 1) },
      sentPlusDeliveredPlusRead: (afterDrain.sent ?? 0) + (afterDrain.delivered ?? 0) + (afterDrain.read ?? 0),
      messagesWithMoreThanOneSentEntry: dbDup.sent_twice,
      messagesWithMoreThanOneAttempt: dbDup.retried,
      /** pg_stat_database.deadlocks of the run's database, send and drain. */
      deadlocks: deadlocksInRun,
    },
    workerLogs,
    kill,
    temporal: {
      runs: runs.runs,
      openRuns: runs.open,
      historyEvents: runs.historyEvents,
      historyEventsPerMessage: round(runs.historyEvents / n, 3),
      byType: runs.byType,
    },
    cpu: {
      windowS: round(windowS, 2),
      seconds: cpuS,
      msPerMessage: Object.fromEntries(Object.entries(cpuS).map(([k, v]) => [k, v === null ? null : round((v * 1000) / n, 2)])),
      coresBusy: round(cpuTotal / windowS, 2),
      whileSending: cpuWhileSending(c.timeline, c.rate),
    },
    timeline: c.json ? c.timeline : undefined,
    perSecond: c.json ? stats.perSecond : undefined,
  };
}

export type Figures = Awaited<ReturnType<typeof collectFigures>>;
