import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BroadcastActivities } from './activities';
import { BROADCAST_CHANGED_SIGNAL, type BroadcastInput, type BroadcastStep } from './contract';

export const broadcastChangedSignal = defineSignal(BROADCAST_CHANGED_SIGNAL);

const { beginBroadcast, enqueueBroadcastStep, broadcastProgress } = proxyActivities<BroadcastActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** How often a running broadcast looks at its messages when nothing signals it. */
const PROGRESS_POLL_MS = 2000;
/** A paused broadcast looks again this often, in case the signal of its resume was lost. */
const PAUSED_POLL_MS = 30_000;
const ENDED = new Set<BroadcastStep['status']>(['completed', 'cancelled', 'failed']);

/**
 * One per broadcast (`broadcast-<id>`): waits for its start time, pages its segment into queued
 * messages (the governor paces them), then completes once none is left. The database holds the
 * truth (status, cursor, messages), so every step is a retry-safe activity and pause, resume
 * and cancel are database changes followed by a signal that only shortens a wait.
 */
export async function runBroadcast(input: BroadcastInput): Promise<BroadcastStep['status']> {
  let changed = false;
  setHandler(broadcastChangedSignal, () => {
    changed = true;
  });
  const waitForChange = async (ms: number) => {
    await condition(() => changed, ms);
    changed = false;
  };

  // Begins it when its time has come; until then, or while paused before it began, wait.
  let step = await beginBroadcast(input);
  while (!step.started && !ENDED.has(step.status)) {
    const wait = step.status === 'scheduled' && step.scheduledAt ? Math.max(0, Date.parse(step.scheduledAt) - Date.now()) : PAUSED_POLL_MS;
    await waitForChange(wait);
    step = await beginBroadcast(input);
  }
  while (!ENDED.has(step.status) && !step.enqueueDone) {
    if (step.status === 'paused') {
      await waitForChange(PAUSED_POLL_MS);
      step = await broadcastProgress(input);
      continue;
    }
    step = await enqueueBroadcastStep(input);
  }
  while (!ENDED.has(step.status)) {
    await waitForChange(step.status === 'paused' ? PAUSED_POLL_MS : PROGRESS_POLL_MS);
    step = await broadcastProgress(input);
  }
  return step.status;
}
