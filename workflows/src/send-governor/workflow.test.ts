import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { maybeRecordHistory, startStubWorker, type StubWorker } from '../testing/temporal';
import {
  GOVERNOR_BACKLOG_QUERY,
  GOVERNOR_WAKE_SIGNAL,
  SEND_GOVERNOR_WORKFLOW_TYPE,
  type GovernorBacklog,
  type GovernorTotals,
  type SendSliceInput,
  type SendSliceResult,
} from './contract';

/**
 * The governor's loop on the real dev server with stub slices: it runs slices while work is
 * due, sleeps until the next due time, wakes on a signal, ends when idle, and continues as new
 * before its history grows long. The slices themselves (claims, ledgers, provider answers) are
 * tested with the worker and the simulator.
 */
type Script = (call: number) => Partial<SendSliceResult>;
const scripts = new Map<string, Script>();
const calls = new Map<string, number[]>();
let worker: StubWorker;

const result = (r: Partial<SendSliceResult>): SendSliceResult => ({
  sent: 1,
  retried: 0,
  failed: 0,
  idle: false,
  nextDueAt: null,
  queued: 0,
  sending: 0,
  ...r,
});

beforeAll(async () => {
  worker = await startStubWorker('governor', {
    async runSendSlice(input: SendSliceInput): Promise<SendSliceResult> {
      const seen = calls.get(input.workspaceId) ?? [];
      seen.push(Date.now());
      calls.set(input.workspaceId, seen);
      return result(scripts.get(input.workspaceId)!(seen.length));
    },
  });
}, 60_000);
afterAll(async () => worker?.close());

function governor(script: Script, idleLingerMs = 300) {
  const workspaceId = `ws_${randomBytes(5).toString('hex')}`;
  scripts.set(workspaceId, script);
  const workflowId = `send-governor-test-${workspaceId}`;
  const run = worker.client.workflow.start(SEND_GOVERNOR_WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId,
    args: [{ workspaceId, phoneNumberId: '1', idleLingerMs }],
  });
  return { workspaceId, workflowId, run };
}

describe('sendGovernor (stub slices)', () => {
  it('ends when a slice finds it idle, unless a wake arrives while it lingers', async () => {
    const g = governor(() => ({ idle: true }), 3000);
    const handle = await g.run;
    await waitUntil(() => (calls.get(g.workspaceId)?.length ?? 0) >= 1);
    await handle.signal(GOVERNOR_WAKE_SIGNAL);
    await waitUntil(() => (calls.get(g.workspaceId)?.length ?? 0) >= 2);
    const backlog = await handle.query<GovernorBacklog>(GOVERNOR_BACKLOG_QUERY);
    expect(backlog).toMatchObject({ workspaceId: g.workspaceId, phoneNumberId: '1', totals: { slices: 2, sent: 2 } });
    expect((await handle.result()) as GovernorTotals).toEqual({ slices: 2, sent: 2, retried: 0, failed: 0 });
    await maybeRecordHistory(worker.client, 'send-governor-idle-wake', g.workflowId);
  });

  it('sleeps until the next due time when nothing is due now', async () => {
    const g = governor((n) => (n === 1 ? { nextDueAt: new Date(Date.now() + 1500).toISOString(), queued: 3 } : { idle: true }));
    const handle = await g.run;
    await handle.result();
    const [first, second] = calls.get(g.workspaceId)!;
    expect(second! - first!).toBeGreaterThanOrEqual(1400);
  });

  it('continues as new after 200 slices, carrying its totals', async () => {
    const g = governor((n) => (n <= 205 ? { sent: 2 } : { idle: true, sent: 0 }));
    const handle = await g.run;
    expect((await handle.result()) as GovernorTotals).toEqual({ slices: 206, sent: 410, retried: 0, failed: 0 });
    const first = await worker.client.workflow.getHandle(g.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
  }, 60_000);
});

async function waitUntil(fn: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
