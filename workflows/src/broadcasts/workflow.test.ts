import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { maybeRecordHistory, startStubWorker, type StubWorker } from '../testing/temporal';
import { BROADCAST_CHANGED_SIGNAL, BROADCAST_WORKFLOW_TYPE, type BroadcastInput, type BroadcastStep } from './contract';

/**
 * The broadcast workflow's course on the real dev server, over an in-memory broadcast the stub
 * activities move (as the real ones move the database row): wait for the start time, enqueue
 * page by page, stop enqueueing while paused, finish when nothing is left, stop at a cancel.
 */
interface Fake {
  status: BroadcastStep['status'];
  scheduledAt: number | null;
  started: boolean;
  pages: number;
  pagesTotal: number;
  remaining: number;
  calls: string[];
}
const fakes = new Map<string, Fake>();
let worker: StubWorker;

const step = (f: Fake): BroadcastStep => ({
  status: f.status,
  started: f.started,
  enqueueDone: f.pages >= f.pagesTotal,
  remaining: f.remaining,
  scheduledAt: f.scheduledAt ? new Date(f.scheduledAt).toISOString() : null,
});

beforeAll(async () => {
  worker = await startStubWorker('broadcast', {
    async beginBroadcast({ broadcastId }: BroadcastInput) {
      const f = fakes.get(broadcastId)!;
      f.calls.push('begin');
      if (f.status === 'scheduled' && (!f.scheduledAt || f.scheduledAt <= Date.now())) Object.assign(f, { status: 'running', started: true });
      return step(f);
    },
    async enqueueBroadcastStep({ broadcastId }: BroadcastInput) {
      const f = fakes.get(broadcastId)!;
      f.calls.push('enqueue');
      if (f.status === 'running' && f.pages < f.pagesTotal) {
        f.pages += 1;
        f.remaining += 10;
      }
      return step(f);
    },
    async broadcastProgress({ broadcastId }: BroadcastInput) {
      const f = fakes.get(broadcastId)!;
      f.calls.push('progress');
      if (f.status === 'running') f.remaining = 0;
      if (f.status === 'running' && f.pages >= f.pagesTotal && f.remaining === 0) f.status = 'completed';
      return step(f);
    },
  });
}, 60_000);
afterAll(async () => worker?.close());

function broadcast(init: Partial<Fake>) {
  const broadcastId = `brd_${randomBytes(6).toString('hex')}`;
  const fake: Fake = { status: 'scheduled', scheduledAt: null, started: false, pages: 0, pagesTotal: 3, remaining: 0, calls: [], ...init };
  fakes.set(broadcastId, fake);
  const workflowId = `broadcast-${broadcastId}`;
  const started = worker.client.workflow.start(BROADCAST_WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId,
    args: [{ workspaceId: 'ws_1', broadcastId }],
  });
  return { fake, workflowId, started };
}

describe('runBroadcast (stub activities)', () => {
  it('starts at once, enqueues every page, then completes when nothing is left', async () => {
    const b = broadcast({});
    const handle = await b.started;
    expect(await handle.result()).toBe('completed');
    expect(b.fake.calls.slice(0, 4)).toEqual(['begin', 'enqueue', 'enqueue', 'enqueue']);
    await maybeRecordHistory(worker.client, 'broadcast-completed', b.workflowId);
  });

  it('waits for its scheduled time', async () => {
    const at = Date.now() + 1500;
    const b = broadcast({ scheduledAt: at });
    const handle = await b.started;
    expect(await handle.result()).toBe('completed');
    expect(b.fake.calls.filter((c) => c === 'begin').length).toBeGreaterThanOrEqual(2);
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  });

  it('stops enqueueing while paused and goes on when resumed', async () => {
    const b = broadcast({ pagesTotal: 50 });
    const handle = await b.started;
    while (b.fake.pages < 2) await new Promise((r) => setTimeout(r, 10));
    b.fake.status = 'paused';
    await handle.signal(BROADCAST_CHANGED_SIGNAL);
    await new Promise((r) => setTimeout(r, 500));
    const pagesWhilePaused = b.fake.pages;
    await new Promise((r) => setTimeout(r, 700));
    expect(b.fake.pages).toBe(pagesWhilePaused);
    b.fake.status = 'running';
    await handle.signal(BROADCAST_CHANGED_SIGNAL);
    expect(await handle.result()).toBe('completed');
    expect(b.fake.pages).toBe(50);
    await maybeRecordHistory(worker.client, 'broadcast-paused-resumed', b.workflowId);
  });

  it('ends at a cancel', async () => {
    const b = broadcast({ pagesTotal: 1000 });
    const handle = await b.started;
    while (b.fake.pages < 1) await new Promise((r) => setTimeout(r, 10));
    b.fake.status = 'cancelled';
    await handle.signal(BROADCAST_CHANGED_SIGNAL);
    expect(await handle.result()).toBe('cancelled');
    expect(b.fake.pages).toBeLessThan(1000);
  });
});
