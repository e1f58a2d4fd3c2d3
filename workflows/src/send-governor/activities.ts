import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { classifyProviderFailure, PROVIDER_CONSTRAINTS, providerSendBody, systemClock, type Clock, type SendError } from '@mos/core';
import {
  claimDueSends,
  closeServiceWindow,
  getConversationOfContact,
  exhaustSecond,
  getWorkspace,
  markGovernorIdle,
  pruneRateWindows,
  recordSendResults,
  requeueUnanswered,
  sendQueueState,
  type ClaimedSend,
  type Db,
  type SendResult,
  type Vault,
} from '@mos/db';
import type { Logger } from '@mos/config';
import { isProviderError, type ProviderClient } from '@mos/provider';
import type { SendSliceInput, SendSliceResult } from './contract';
import type { SendObserver } from './observer';

export interface SendGovernorDeps {
  db: Db;
  log: Logger;
  vault: Vault;
  provider: ProviderClient;
  clock?: Clock;
  /** The provider's pair spacing (6 s); tests shorten it together with the simulator's. */
  pairSpacingMs?: number;
  /** How long a send with no answer waits for a status webhook naming it before it is sent again. */
  requeueUnansweredAfterMs?: number;
  /** The worker's send counters (docs/operations.md). */
  observeSend?: SendObserver;
}

/** A message is retried this many times on transient failures, then failed with the last error. */
export const MAX_SEND_ATTEMPTS = 10;
const FLUSH_EVERY_MS = 100;
/** Flushes an answer is kept for while its row stays locked or missing (about 10 s). */
const MAX_RECORD_TRIES = 100;
/** A slot is at most a second after its claim; the margin covers the request's own latency. */
const SLOT_SLACK_MS = 1250;
/** A send leaves no later than this into its second (slots end at 880 ms; the rest is for latency). */
const LATEST_SEND_OFFSET_MS = 920;
/** Nothing due for longer than this: hand back to the workflow, which sleeps on a timer. */
const MAX_IN_ACTIVITY_WAIT_MS = 2000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export function createSendGovernorActivities(deps: SendGovernorDeps) {
  const clock = deps.clock ?? systemClock;
  const pairSpacingMs = deps.pairSpacingMs ?? PROVIDER_CONSTRAINTS.pairRateLimitSeconds * 1000;
  const requeueAfterMs = deps.requeueUnansweredAfterMs ?? 60_000;

  return {
    /**
     * Sends what is due for one business number for up to `maxDurationMs`: each calendar second
     * it claims that second's budget (throughput and pair spacing from the database ledgers),
     * sends each claimed message at its slot, and records answers in batches. Heartbeats as it
     * goes; a retried slice after a crash is safe because claims and ledgers are in the database.
     */
    async runSendSlice(input: SendSliceInput): Promise<SendSliceResult> {
      const { workspaceId, phoneNumberId } = input;
      const ctx = Context.current();
      const ws = await getWorkspace(deps.db, workspaceId);
      if (!ws) throw ApplicationFailure.create({ type: 'WorkspaceNotFound', message: `workspace ${workspaceId} not found`, nonRetryable: true });
      const perSecond = ws.throughputUpgraded
        ? PROVIDER_CONSTRAINTS.eligibleUpgradeThroughputMessagesPerSecond
        : PROVIDER_CONSTRAINTS.defaultThroughputMessagesPerSecond;
      const accessToken = await deps.vault.get(deps.db, workspaceId, 'provider-access-token');
      const tally = { sent: 0, retried: 0, failed: 0 };
      if (!accessToken) {
        // Messages wait (nothing is lost) until an operator stores the token.
        deps.log.warn({ workspaceId, phoneNumberId }, 'send governor: no provider access token; messages stay queued');
        return finish(deps, input, tally, new Date(clock.now().getTime() + 60_000));
      }

      const deadline = clock.now().getTime() + (input.maxDurationMs ?? 60_000);
      const pending: SendResult[] = [];
      const inFlight = new Set<Promise<void>>();
      let lastRequeue = 0;
      let flushedAt = clock.now().getTime();
      // Answers not recorded yet (a row held by a webhook batch, a database hiccup) stay pending
      // and are tried again at the next flush: an answer is never dropped while the slice runs.
      const tries = new Map<string, number>();
      const flush = async () => {
        flushedAt = clock.now().getTime();
        if (pending.length === 0) return;
        const batch = pending.splice(0, pending.length);
        let recorded: Set<string>;
        try {
          recorded = await recordSendResults(deps.db, workspaceId, batch, clock.now());
        } catch (err) {
          deps.log.warn({ err, workspaceId, phoneNumberId, pending: batch.length }, 'send governor: recording answers failed; retrying');
          recorded = new Set();
        }
        for (const r of batch) {
          if (recorded.has(r.id)) {
            tries.delete(r.id);
            continue;
          }
          const n = (tries.get(r.id) ?? 0) + 1;
          tries.set(r.id, n);
          // A row gone for good (its contact erased meanwhile) would be retried forever.
          if (n <= MAX_RECORD_TRIES) pending.push(r);
          else deps.log.error({ workspaceId, messageId: r.id, kind: r.kind }, 'send governor: could not record an answer');
        }
      };

      const sendOne = async (s: ClaimedSend) => {
        await sleep(s.slotAt - clock.now().getTime());
        // A slot missed so late (a stalled event loop) that the request could land in the next
        // second would spend that second's budget twice: put the message back instead.
        if (clock.now().getTime() > Math.floor(s.slotAt / 1000) * 1000 + LATEST_SEND_OFFSET_MS) {
          pending.push({ id: s.id, kind: 'released' });
          return;
        }
        try {
          const res = await deps.provider.sendMessage({ phoneNumberId, accessToken }, providerSendBody(s.id, s.toPhone, s.content));
          pending.push({ id: s.id, kind: 'accepted', providerMessageId: res.messages[0]!.id, at: clock.now() });
          tally.sent += 1;
          deps.observeSend?.answered('accepted', null);
        } catch (err) {
          const result = await onFailure(s, err);
          if (result) pending.push(result);
        }
      };

      const onFailure = async (s: ClaimedSend, err: unknown): Promise<SendResult | null> => {
        const now = clock.now();
        if (!isProviderError(err)) {
          deps.observeSend?.answered('unexpected_error', null);
          deps.log.error({ err, workspaceId, messageId: s.id }, 'send failed unexpectedly');
          tally.retried += 1;
          return { id: s.id, kind: 'retry', notBefore: new Date(now.getTime() + 5000) };
        }
        const pe = err.error;
        const details = typeof pe?.error_data === 'object' ? pe.error_data.details : undefined;
        const outcome = classifyProviderFailure(
          { status: err.status, outcomeUnknown: err.outcomeUnknown, code: pe?.code, title: pe?.error_user_title ?? pe?.message, message: pe?.message, details },
          s.attempts,
          pairSpacingMs,
        );
        deps.observeSend?.answered(outcome.kind, pe?.code ?? null);
        const lastError: SendError = { code: pe?.code ?? err.status ?? 'provider_unreachable', title: err.userMessage };
        switch (outcome.kind) {
          case 'unknown':
            // Held as `sending`: a status webhook carrying our id settles it, else it is requeued later.
            deps.log.warn({ workspaceId, messageId: s.id }, 'send outcome unknown; waiting for a status webhook');
            return null;
          case 'throttled':
            await exhaustSecond(deps.db, workspaceId, phoneNumberId, now, perSecond);
            tally.retried += 1;
            return { id: s.id, kind: 'retry', notBefore: new Date(now.getTime() + outcome.retryAfterMs), lastError };
          case 'pair_limited':
            tally.retried += 1;
            return { id: s.id, kind: 'retry', notBefore: new Date(now.getTime() + outcome.retryAfterMs + SLOT_SLACK_MS), lastError };
          case 'transient':
            if (s.attempts >= MAX_SEND_ATTEMPTS) {
              tally.failed += 1;
              return { id: s.id, kind: 'failed', error: lastError, at: now };
            }
            tally.retried += 1;
            return { id: s.id, kind: 'retry', notBefore: new Date(now.getTime() + outcome.retryAfterMs), lastError };
          case 'window_closed':
            {
              // The same rule as a 131047 arriving on a status webhook (effects/conversations.ts).
              const conversation = await getConversationOfContact(deps.db, workspaceId, s.contactId);
              if (conversation) await closeServiceWindow(deps.db, workspaceId, conversation.id, now);
            }
            tally.failed += 1;
            return { id: s.id, kind: 'failed', error: outcome.error, at: now };
          case 'rejected':
            tally.failed += 1;
            return { id: s.id, kind: 'failed', error: outcome.error, at: now };
        }
      };

      while (clock.now().getTime() < deadline && !ctx.cancellationSignal.aborted) {
        ctx.heartbeat({ sent: tally.sent });
        const nowMs = clock.now().getTime();
        if (nowMs - lastRequeue >= 1000) {
          lastRequeue = nowMs;
          await requeueUnanswered(deps.db, workspaceId, phoneNumberId, new Date(nowMs - requeueAfterMs), clock.now());
          await pruneRateWindows(deps.db, workspaceId, phoneNumberId, new Date(nowMs - 120_000));
        }
        const claim = await deps.db.transaction((tx) =>
          claimDueSends(tx, workspaceId, phoneNumberId, { now: clock.now(), perSecond, pairSpacingMs, slotSlackMs: SLOT_SLACK_MS }),
        );
        for (const s of claim.sends) {
          const p = sendOne(s).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        if (clock.now().getTime() - flushedAt >= FLUSH_EVERY_MS) await flush();
        const nextSecond = (Math.floor(clock.now().getTime() / 1000) + 1) * 1000;
        if (claim.budgetExhausted) {
          await sleep(nextSecond - clock.now().getTime());
          continue;
        }
        if (claim.sends.length > 0 || claim.refused > 0) {
          await sleep(Math.min(FLUSH_EVERY_MS, nextSecond - clock.now().getTime()));
          continue;
        }
        // Nothing due now. Finish what is in flight, then decide: idle, a short wait, or hand back.
        if (inFlight.size > 0) {
          await sleep(FLUSH_EVERY_MS);
          continue;
        }
        await flush();
        const state = await sendQueueState(deps.db, workspaceId, phoneNumberId, requeueAfterMs);
        if (state.queued === 0 && state.sending === 0) break;
        const wait = state.nextDueAt ? state.nextDueAt.getTime() - clock.now().getTime() : MAX_IN_ACTIVITY_WAIT_MS;
        if (wait > MAX_IN_ACTIVITY_WAIT_MS) break;
        await sleep(Math.min(Math.max(wait, 20), 250));
      }
      await Promise.allSettled([...inFlight]);
      for (let i = 0; pending.length > 0 && i < MAX_RECORD_TRIES; i++) {
        await flush();
        if (pending.length > 0) await sleep(FLUSH_EVERY_MS);
      }
      return finish(deps, input, tally, null, requeueAfterMs);
    },
  };
}

async function finish(
  deps: SendGovernorDeps,
  input: SendSliceInput,
  tally: { sent: number; retried: number; failed: number },
  nextDueOverride: Date | null,
  requeueAfterMs = 60_000,
): Promise<SendSliceResult> {
  const state = await sendQueueState(deps.db, input.workspaceId, input.phoneNumberId, requeueAfterMs);
  const empty = state.queued === 0 && state.sending === 0;
  const idle = empty && nextDueOverride === null && (await markGovernorIdle(deps.db, input.workspaceId, input.phoneNumberId));
  const nextDueAt = nextDueOverride ?? state.nextDueAt;
  return { ...tally, idle, nextDueAt: idle ? null : (nextDueAt?.toISOString() ?? null), queued: state.queued, sending: state.sending };
}

export type SendGovernorActivities = ReturnType<typeof createSendGovernorActivities>;
