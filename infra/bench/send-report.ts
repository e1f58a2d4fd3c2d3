/**
 * The figures of send-governor.ts that need more than a counter: acceptances checked message by
 * message, the densest sliding second, pauses in sending, the Temporal census of the run's task
 * queue, and the human table.
 */
import type { LazyTemporalClient } from '../../packages/app/src/index';
import type { SimMessage } from '../../packages/provider/src/simulator/index';

type Client = Awaited<ReturnType<LazyTemporalClient['get']>>;

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
