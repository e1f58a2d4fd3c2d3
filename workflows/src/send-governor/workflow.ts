import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SendGovernorActivities } from './activities';
import {
  GOVERNOR_BACKLOG_QUERY,
  GOVERNOR_WAKE_SIGNAL,
  type GovernorBacklog,
  type GovernorTotals,
  type SendGovernorInput,
  type SendSliceResult,
} from './contract';

export const wakeSignal = defineSignal(GOVERNOR_WAKE_SIGNAL);
export const backlogQuery = defineQuery<GovernorBacklog>(GOVERNOR_BACKLOG_QUERY);

// A slice sends for up to a minute, heartbeating; a killed worker is noticed within 10 s and
// the slice runs again elsewhere (claims and ledgers in the database make that safe).
const { runSendSlice } = proxyActivities<SendGovernorActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Slices per run before continue-as-new keeps the history short (about 4 events a slice). */
const SLICES_PER_RUN = 200;
/** An idle governor with nothing in the future waits this long for a wake before it ends. */
const IDLE_LINGER_MS = 5 * 60_000;

/**
 * One per business number (`send-governor-<workspace>-<phone number id>`): runs send slices
 * while anything is due, sleeps until the next due time or a wake signal, ends when idle.
 */
export async function sendGovernor(input: SendGovernorInput): Promise<GovernorTotals> {
  const totals: GovernorTotals = input.totals ?? { slices: 0, sent: 0, retried: 0, failed: 0 };
  let woken = false;
  let last: SendSliceResult | null = null;
  let lastSliceAt: string | null = null;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  setHandler(backlogQuery, () => ({
    workspaceId: input.workspaceId,
    phoneNumberId: input.phoneNumberId,
    queued: last?.queued ?? 0,
    sending: last?.sending ?? 0,
    nextDueAt: last?.nextDueAt ?? null,
    lastSliceAt,
    totals,
  }));

  for (let slice = 0; slice < SLICES_PER_RUN; slice++) {
    woken = false;
    last = await runSendSlice({ workspaceId: input.workspaceId, phoneNumberId: input.phoneNumberId });
    lastSliceAt = new Date().toISOString();
    totals.slices += 1;
    totals.sent += last.sent;
    totals.retried += last.retried;
    totals.failed += last.failed;
    if (woken) continue;
    if (last.idle) {
      // Ends unless woken meanwhile; an enqueuer that finds the row idle starts a new run.
      if (!(await condition(() => woken, input.idleLingerMs ?? IDLE_LINGER_MS))) return totals;
      continue;
    }
    if (last.nextDueAt) {
      const wait = Math.max(0, Date.parse(last.nextDueAt) - Date.now());
      if (wait > 0) await condition(() => woken, wait);
    }
  }
  return continueAsNew<typeof sendGovernor>({ ...input, totals });
}
