/**
 * The figures of send-governor.ts that need more than a counter: acceptances checked message by
 * message, the densest sliding second, pauses in sending, the Temporal census of the run's task
 * queue, failures in the workers' logs, CPU while sending at speed, and aligned table rows.
 */
import type { LazyTemporalClient } from '../../packages/app/src/index';
import type { SimMessage } from '../../packages/provider/src/simulator/index';
import type { Figures } from './send-figures';

export type Counts = Record<string, number>;
export type Client = Awaited<ReturnType<LazyTemporalClient['get']>>;

export const round = (x: number | null, digits = 1): number | null => (x === null || !Number.isFinite(x) ? null : +x.toFixed(digits));

/**
 * Every message of the broadcast against the simulator's log of accepted sends (our message id
 * rides in `biz_opaque_callback_data`): how many were accepted once, more than once, or never.
 */
export function acceptanceCheck(messageIds: string[], accepted: Pick<SimMessage, 'callbackData'>[]) {
  const times = new Map<string, number>();
  for (const m of accepted) if (m.callbackData) times.set(m.callbackData, (times.get(m.callbackData) ?? 0) + 1);
  let once = 0;
  let moreThanOnce = 0;
  let never = 0;
  const ours = new Set(messageIds);
  for (const id of messageIds) {
    const n = times.get(id) ?? 0;
    if (n === 0) never++;
    else if (n === 1) once++;
    else moreThanOnce++;
  }
  const foreign = [...times.keys()].filter((k) => !ours.has(k)).length;
  return { messages: messageIds.length, acceptedOnce: once, acceptedMoreThanOnce: moreThanOnce, neverAccepted: never, acceptedNotOurs: foreign };
}

/** The most acceptances within any 1000 ms (sliding, not calendar-aligned). */
export function maxInSlidingSecond(acceptedAtMs: number[]): number {
  const t = [...acceptedAtMs].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j]! - t[i]! >= 1000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/** The longest time between two consecutive acceptances, and when it began. */
export function longestPause(acceptedAtMs: number[]): { ms: number; fromMs: number | null } {
  const t = [...acceptedAtMs].sort((a, b) => a - b);
  let best = { ms: 0, fromMs: null as number | null };
  for (let i = 1; i < t.length; i++) if (t[i]! - t[i - 1]! > best.ms) best = { ms: t[i]! - t[i - 1]!, fromMs: t[i - 1]! };
  return best;
}

export interface Census {
  runs: number;
  open: number;
  historyEvents: number;
  byType: Record<string, { runs: number; open: number; historyEvents: number }>;
}

/**
 * Every run on the task queue (the run's own queue: nothing else uses it) and its history
 * length: closed runs from visibility, open ones (the governor lingers idle for minutes) from
 * describe, whose count is the live one.
 */
export async function census(client: Client, taskQueue: string): Promise<Census> {
  const c: Census = { runs: 0, open: 0, historyEvents: 0, byType: {} };
  for await (const wf of client.workflow.list({ query: `TaskQueue = '${taskQueue}'`, pageSize: 1000 })) {
    const open = wf.status.name === 'RUNNING';
    const events = open ? (await client.workflow.getHandle(wf.workflowId, wf.runId).describe()).historyLength : wf.historyLength;
    const t = (c.byType[wf.type] ??= { runs: 0, open: 0, historyEvents: 0 });
    t.runs++;
    t.historyEvents += events;
    c.runs++;
    c.historyEvents += events;
    if (open) {
      t.open++;
      c.open++;
    }
  }
  return c;
}

/** Aligned rows of `label  value` pairs. */
export function table(rows: [string, string | number | null][]): string {
  const w = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, v]) => `  ${l.padEnd(w)}  ${v ?? 'n/a'}`).join('\n');
}

/**
 * What went wrong in the workers, from their logs: Temporal activity failures by activity type
 * (the SDK logs each as a `[WARN] Activity failed {...}` block) and how many of them were
 * PostgreSQL deadlocks (40P01), plus webhooks that failed inside their batch.
 */
export function scanWorkerLogs(texts: string[]): {
  activityFailures: Record<string, number>;
  deadlockFailures: Record<string, number>;
  webhooksFailedInBatch: number;
} {
  const activityFailures: Record<string, number> = {};
  const deadlockFailures: Record<string, number> = {};
  let webhooksFailedInBatch = 0;
  for (const text of texts) {
    webhooksFailedInBatch += text.split('"msg":"webhook failed in its batch"').length - 1;
    for (const block of text.split(/\n(?=\S)/)) {
      if (!block.includes('Activity failed {')) continue;
      const type = /activityType: '([^']+)'/.exec(block)?.[1] ?? 'unknown';
      activityFailures[type] = (activityFailures[type] ?? 0) + 1;
      if (block.includes('40P01')) deadlockFailures[type] = (deadlockFailures[type] ?? 0) + 1;
    }
  }
  return { activityFailures, deadlockFailures, webhooksFailedInBatch };
}

export interface CpuMark {
  at: number;
  workers: number[];
  api: number;
  simulator: number;
  temporal: number | null;
  postgres: number | null;
  bench: number;
}

/** One sample a second while the broadcast runs: acceptances so far, the messages by status, CPU so far. */
export interface TimelinePoint {
  t: number | null;
  accepted: number;
  counts: Counts;
  cpu: CpuMark;
}

/**
 * CPU while sending at speed: over the sampled seconds that accepted at least half the rate,
 * each process's CPU (cores busy, and ms per message accepted in those seconds). Stalls and the
 * tail would dilute the per-process figures that name the bottleneck.
 */
export function cpuWhileSending(timeline: TimelinePoint[], rate: number) {
  let seconds = 0;
  let accepted = 0;
  const ms: Record<string, number> = {};
  const add = (k: string, a: number | null, b: number | null) => {
    if (a !== null && b !== null) ms[k] = (ms[k] ?? 0) + b - a;
  };
  for (let i = 1; i < timeline.length; i++) {
    const [p, q] = [timeline[i - 1]!, timeline[i]!];
    const dt = (q.cpu.at - p.cpu.at) / 1000;
    if (dt <= 0 || (q.accepted - p.accepted) / dt < rate / 2) continue;
    seconds += dt;
    accepted += q.accepted - p.accepted;
    // A worker started between the samples counts from 0; one killed keeps its last reading.
    add(
      'worker',
      p.cpu.workers.reduce((x, y) => x + y, 0),
      q.cpu.workers.reduce((x, y) => x + y, 0),
    );
    add('api', p.cpu.api, q.cpu.api);
    add('simulator', p.cpu.simulator, q.cpu.simulator);
    add('temporal', p.cpu.temporal, q.cpu.temporal);
    add('postgres', p.cpu.postgres, q.cpu.postgres);
    add('bench', p.cpu.bench, q.cpu.bench);
  }
  if (seconds === 0) return null;
  return {
    seconds: round(seconds, 1),
    accepted,
    ratePerS: round(accepted / seconds, 1),
    coresBusy: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, round(v / 1000 / seconds, 2)])),
    coresBusyTotal: round(Object.values(ms).reduce((a, b) => a + b, 0) / 1000 / seconds, 2),
    msPerMessage: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, round(v / accepted, 2)])),
  };
}

/** The human table of a run (send-governor.ts prints it). */
export function printFigures(r: Figures, n: number, rate: number): string {
  const counts = (c: Counts) =>
    Object.entries(c)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  const { time: t, simulator: s, db, kill: k } = r;
  const rows: [string, string | number | null][] = [
    ['recipients / rate', `${n} at ${rate}/s (ideal ${t.idealS} s)`],
    ['total (create -> completed)', r.completed ? `${t.createToCompletedS} s (${t.deviationPct}% from ideal)` : 'NOT COMPLETED within --timeout'],
    ['first / last accept, completed', `${t.createToFirstAcceptS} / ${t.createToLastAcceptS} / ${t.createToCompletedS} s`],
    ['achieved rate', `${r.achievedRatePerS}/s`],
    ['max per second / seconds over limit', `${s.maxPerSecond} / ${s.secondsOverLimit} (sliding 1 s max ${s.maxInSlidingSecond})`],
    ['duplicates (simulator) / pair violations', `${s.duplicates} / ${s.pairViolations}`],
    ['rejections by code', JSON.stringify(s.rejectionsByCode)],
    ['messages accepted once / more / never', `${r.perMessage.acceptedOnce} / ${r.perMessage.acceptedMoreThanOnce} / ${r.perMessage.neverAccepted}`],
    ['DB at completion', counts(db.atCompletion)],
    ['DB after drain', `${counts(db.afterDrain)} (drained ${db.drainedAfterCompletionMs ?? 'never'} ms after)`],
    [
      'status webhooks: stored -> applied',
      `p50 ${db.statusWebhookLagS.p50} s, p95 ${db.statusWebhookLagS.p95} s, max ${db.statusWebhookLagS.max} s (${db.statusWebhookLagS.jobs} webhooks, ${db.statusWebhookLagS.notDone} not applied)`,
    ],
    ['DB: >1 sent entry / >1 attempt', `${db.messagesWithMoreThanOneSentEntry} / ${db.messagesWithMoreThanOneAttempt}`],
    ['longest pause between accepts', `${t.longestPauseMs} ms`],
    [
      'deadlocks (PostgreSQL) / activity failures',
      `${db.deadlocks} / ${JSON.stringify(r.workerLogs.activityFailures)} (deadlocks among them ${JSON.stringify(r.workerLogs.deadlockFailures)}); ` +
        `webhooks failed in their batch ${r.workerLogs.webhooksFailedInBatch}`,
    ],
    [
      'Temporal history events / message',
      `${r.temporal.historyEventsPerMessage} (${r.temporal.runs} runs: ${Object.entries(r.temporal.byType)
        .map(([type, v]) => `${type} ${v.runs} runs ${v.historyEvents} ev`)
        .join(', ')})`,
    ],
    [
      'CPU s (ms/message)',
      Object.entries(r.cpu.seconds)
        .map(([p, v]) => `${p} ${v} (${r.cpu.msPerMessage[p]})`)
        .join(', '),
    ],
    ['cores busy over the send / load avg', `${r.cpu.coresBusy} / ${r.loadavg.atCompletion.join(' ')}`],
    [
      'while sending at >= rate/2',
      r.cpu.whileSending
        ? `${r.cpu.whileSending.seconds} s at ${r.cpu.whileSending.ratePerS}/s; cores ${JSON.stringify(r.cpu.whileSending.coresBusy)} = ${r.cpu.whileSending.coresBusyTotal}; ` +
          `ms/message ${JSON.stringify(r.cpu.whileSending.msPerMessage)}`
        : 'no such second',
    ],
  ];
  if (k) {
    rows.push([
      'kill',
      `at ${k.atS} s (${k.acceptedAtKill} accepted); new worker running after ${k.newWorkerRunningAfterS} s, sending resumed after ${k.sendingResumedAfterS} s; ` +
        `${k.heldAsSending} held as sending (${k.heldAcceptedBeforeKill} accepted before the kill, ${k.heldSentAfterKill} sent after it, ${k.heldSentAfterKillFromS}-${k.heldSentAfterKillToS} s)`,
    ]);
  }
  return table(rows);
}
