import { sql } from 'drizzle-orm';
import type { OutboundContent, SendError } from '@mos/core';
import type { DbOrTx } from '../client';

/** A message claimed for one provider call, with the slot it must not be sent before. */
export interface ClaimedSend {
  id: string;
  contactId: string;
  toPhone: string;
  content: OutboundContent;
  attempts: number;
  /** Epoch ms: evenly spaced through the second so no calendar second exceeds the limit. */
  slotAt: number;
}

export interface ClaimOptions {
  now: Date;
  perSecond: number;
  pairSpacingMs: number;
  /** Upper bound of the delay between claim and send (the slot); added to the pair spacing. */
  slotSlackMs: number;
}

export interface ClaimOutcome {
  sends: ClaimedSend[];
  /** Refused at send time (unsubscribed, window closed): already recorded. */
  refused: number;
  /** The second's budget is used up. */
  budgetExhausted: boolean;
}

type CandidateRow = {
  id: string;
  contact_id: string;
  to_phone: string;
  content: OutboundContent;
  attempts: number;
  subscriber_status: string | null;
  // Raw rows: timestamps arrive as the driver gives them (string or Date); read through new Date().
  window_expires_at: Date | string | null;
  recent_at: Date | string | null;
};

const json = (v: unknown) => JSON.stringify(v);

/** Sends of a second go out in its first 880 ms: the rest is margin for a loaded worker and the request's latency. */
const SEND_WINDOW_MS = 880;
const LATE_TOLERANCE_MS = 50;

/**
 * Claims the messages a business number may send in the current calendar second, in one
 * transaction serialised on the governor row (so two workers never share a budget):
 * - the second's budget is `perSecond` minus what the ledger already holds for it;
 * - one message per recipient per `pairSpacingMs` (+ slot slack): later ones get a `not_before`;
 * - paused or cancelled broadcasts are passed over;
 * - the send-time rules run here too: an unsubscribed or blocked contact is skipped, a
 *   free-form message whose window closed since acceptance fails `outside_service_window`.
 * Claimed rows become `sending` (attempt +1) and the pair and throughput ledgers move in the
 * same transaction, so a crash after commit can only lose a send, never double one.
 */
export async function claimDueSends(tx: DbOrTx, workspaceId: string, phoneNumberId: string, o: ClaimOptions): Promise<ClaimOutcome> {
  const nowMs = o.now.getTime();
  const second = Math.floor(nowMs / 1000);
  await tx.execute(sql`
    INSERT INTO send_governors (workspace_id, phone_number_id, state) VALUES (${workspaceId}, ${phoneNumberId}, 'active')
    ON CONFLICT (workspace_id, phone_number_id) DO UPDATE SET state = 'active', updated_at = now()`);
  const used = await tx.execute<{ sends: number }>(sql`
    SELECT sends FROM send_rate_windows WHERE workspace_id = ${workspaceId} AND phone_number_id = ${phoneNumberId} AND second = ${second}`);
  const reserved = used.rows[0]?.sends ?? 0;
  // Slots k = 0..perSecond-1 sit at k * spacing inside the first SEND_WINDOW_MS of the second,
  // so the last send leaves well before the second ends and cannot spill into the next one.
  // Slots passed by less than LATE_TOLERANCE_MS are still usable (sent at once), so a claim a
  // few milliseconds into the second loses none.
  const spacing = SEND_WINDOW_MS / o.perSecond;
  const elapsed = nowMs - second * 1000;
  const firstFree = Math.max(reserved, Math.ceil(Math.max(0, elapsed - LATE_TOLERANCE_MS) / spacing));
  const budget = o.perSecond - firstFree;
  if (budget <= 0) return { sends: [], refused: 0, budgetExhausted: true };
  const pairWindow = new Date(nowMs - o.pairSpacingMs - o.slotSlackMs);
  const res = await tx.execute<CandidateRow>(sql`
    WITH due AS (
      SELECT m.id, m.contact_id, m.to_phone, m.content, m.attempts, m.type
        FROM outbound_messages m
       WHERE m.workspace_id = ${workspaceId} AND m.phone_number_id = ${phoneNumberId}
         AND m.status = 'queued' AND m.not_before <= ${o.now}
         AND (m.broadcast_id IS NULL OR EXISTS (
               SELECT 1 FROM broadcasts b WHERE b.id = m.broadcast_id AND b.workspace_id = m.workspace_id AND b.status = 'running'))
       ORDER BY m.not_before, m.id
       LIMIT ${budget * 2 + 16}
         FOR UPDATE OF m SKIP LOCKED
    )
    SELECT d.id, d.contact_id, d.to_phone, d.content, d.attempts,
           c.subscriber_status, cv.window_expires_at, r.last_sent_at AS recent_at
      FROM due d
      LEFT JOIN contacts c ON c.workspace_id = ${workspaceId} AND c.id = d.contact_id
      LEFT JOIN conversations cv ON cv.workspace_id = ${workspaceId} AND cv.contact_id = d.contact_id
      -- LATERAL: one primary-key probe per candidate. A plain join let the planner, misled by
      -- stale statistics after a bulk enqueue, scan every recipient of the number per claim.
      LEFT JOIN LATERAL (
        SELECT r.last_sent_at FROM recipient_sends r
         WHERE r.workspace_id = ${workspaceId} AND r.phone_number_id = ${phoneNumberId} AND r.to_phone = d.to_phone AND r.last_sent_at > ${pairWindow}
      ) r ON true`);

  const take: CandidateRow[] = [];
  const defer: { id: string; notBefore: Date }[] = [];
  const refuse: { id: string; status: 'skipped' | 'failed'; error: SendError }[] = [];
  const seen = new Set<string>();
  for (const row of res.rows) {
    if (row.subscriber_status !== 'subscribed') {
      refuse.push({ id: row.id, status: 'skipped', error: { code: 'contact_unsubscribed', title: 'The contact unsubscribed before the message was sent' } });
      continue;
    }
    if (row.content.kind !== 'template' && !(row.window_expires_at && new Date(row.window_expires_at).getTime() > nowMs)) {
      refuse.push({
        id: row.id,
        status: 'failed',
        error: { code: 'outside_service_window', title: 'The 24-hour service window closed before the message was sent' },
      });
      continue;
    }
    if (row.recent_at) {
      defer.push({ id: row.id, notBefore: new Date(new Date(row.recent_at).getTime() + o.pairSpacingMs + o.slotSlackMs) });
      continue;
    }
    if (seen.has(row.to_phone)) {
      defer.push({ id: row.id, notBefore: new Date(nowMs + o.pairSpacingMs + o.slotSlackMs) });
      continue;
    }
    if (take.length >= budget) continue;
    seen.add(row.to_phone);
    take.push(row);
  }

  const at = o.now.toISOString();
  if (refuse.length > 0) {
    const rows = sql.join(
      refuse.map((r) => sql`(${r.id}::text, ${r.status}::text, ${json(r.error)}::jsonb, ${json([{ status: r.status, at }])}::jsonb)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE outbound_messages m SET status = v.status, error = v.error, status_history = m.status_history || v.entry, updated_at = ${o.now}
        FROM (VALUES ${rows}) AS v(id, status, error, entry)
       WHERE m.workspace_id = ${workspaceId} AND m.id = v.id`);
  }
  if (defer.length > 0) {
    const rows = sql.join(
      defer.map((d) => sql`(${d.id}::text, ${d.notBefore}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE outbound_messages m SET not_before = v.not_before, updated_at = ${o.now}
        FROM (VALUES ${rows}) AS v(id, not_before) WHERE m.workspace_id = ${workspaceId} AND m.id = v.id`);
  }
  if (take.length === 0) return { sends: [], refused: refuse.length, budgetExhausted: false };

  const ids = take.map((t) => t.id);
  await tx.execute(sql`
    UPDATE outbound_messages SET status = 'sending', claimed_at = ${o.now}, attempts = attempts + 1, updated_at = ${o.now}
     WHERE workspace_id = ${workspaceId} AND id IN (${sql.join(
       ids.map((id) => sql`${id}`),
       sql`, `,
     )})`);
  const phones = sql.join(
    take.map((t) => sql`(${workspaceId}::text, ${phoneNumberId}::text, ${t.to_phone}::text, ${o.now}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`
    INSERT INTO recipient_sends (workspace_id, phone_number_id, to_phone, last_sent_at) VALUES ${phones}
    ON CONFLICT (workspace_id, phone_number_id, to_phone) DO UPDATE SET last_sent_at = greatest(recipient_sends.last_sent_at, excluded.last_sent_at)`);
  await tx.execute(sql`
    INSERT INTO send_rate_windows (workspace_id, phone_number_id, second, sends) VALUES (${workspaceId}, ${phoneNumberId}, ${second}, ${take.length})
    ON CONFLICT (workspace_id, phone_number_id, second) DO UPDATE SET sends = send_rate_windows.sends + excluded.sends`);

  const sends = take.map((t, i) => ({
    id: t.id,
    contactId: t.contact_id,
    toPhone: t.to_phone,
    content: t.content,
    attempts: t.attempts + 1,
    slotAt: Math.max(nowMs, second * 1000 + Math.floor((firstFree + i) * spacing)),
  }));
  return { sends, refused: refuse.length, budgetExhausted: take.length >= budget };
}

/** Spends the rest of the second's budget (the provider said 130429: we were too fast). */
export async function exhaustSecond(db: DbOrTx, workspaceId: string, phoneNumberId: string, now: Date, perSecond: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO send_rate_windows (workspace_id, phone_number_id, second, sends) VALUES (${workspaceId}, ${phoneNumberId}, ${Math.floor(now.getTime() / 1000)}, ${perSecond})
    ON CONFLICT (workspace_id, phone_number_id, second) DO UPDATE SET sends = greatest(send_rate_windows.sends, excluded.sends)`);
}

export type SendResult =
  | { id: string; kind: 'accepted'; providerMessageId: string; at: Date }
  /** Not sent after all (its slot was missed): back in the queue, the attempt not counted. */
  | { id: string; kind: 'released' }
  | { id: string; kind: 'retry'; notBefore: Date; lastError?: SendError }
  | { id: string; kind: 'failed'; error: SendError; at: Date };

/**
 * Records provider answers in one statement. Only rows still `sending` change status: a
 * status webhook that overtook the answer already moved the row (and named its provider id).
 *
 * Rows another transaction holds (a webhook batch applying statuses, which locks them in its
 * own order) are skipped, never waited for: waiting here while that batch waits for a row this
 * statement holds is a deadlock. Returns the ids recorded; the caller records the rest again.
 */
export async function recordSendResults(db: DbOrTx, workspaceId: string, results: SendResult[], now: Date): Promise<Set<string>> {
  if (results.length === 0) return new Set();
  const rows = sql.join(
    results.map((r) => {
      const at = r.kind === 'retry' || r.kind === 'released' ? now : r.at;
      const pid = r.kind === 'accepted' ? r.providerMessageId : null;
      const nb = r.kind === 'retry' ? r.notBefore : r.kind === 'released' ? now : null;
      const err = r.kind === 'failed' ? r.error : r.kind === 'retry' ? (r.lastError ?? null) : null;
      const entry =
        r.kind === 'accepted'
          ? { status: 'sent', at: at.toISOString() }
          : r.kind === 'failed'
            ? { status: 'failed', at: at.toISOString(), ...(typeof r.error.code === 'number' ? { code: r.error.code } : {}) }
            : null;
      return sql`(${r.id}::text, ${r.kind}::text, ${pid}::text, ${nb}::timestamptz, ${err === null ? null : json(err)}::jsonb, ${entry === null ? null : json([entry])}::jsonb, ${at}::timestamptz)`;
    }),
    sql`, `,
  );
  const res = await db.execute<{ id: string }>(sql`
    WITH v(id, kind, pid, not_before, error, entry, at) AS (VALUES ${rows}),
    locked AS (
      SELECT m.id FROM outbound_messages m JOIN v ON v.id = m.id
       WHERE m.workspace_id = ${workspaceId}
         FOR UPDATE OF m SKIP LOCKED
    )
    UPDATE outbound_messages m SET
      status = CASE WHEN m.status <> 'sending' THEN m.status WHEN v.kind = 'accepted' THEN 'sent' WHEN v.kind = 'failed' THEN 'failed' ELSE 'queued' END,
      attempts = CASE WHEN m.status = 'sending' AND v.kind = 'released' THEN greatest(m.attempts - 1, 0) ELSE m.attempts END,
      status_rank = CASE WHEN m.status = 'sending' AND v.kind = 'accepted' THEN 1 ELSE m.status_rank END,
      status_history = CASE WHEN m.status = 'sending' AND v.entry IS NOT NULL THEN m.status_history || v.entry ELSE m.status_history END,
      provider_message_id = coalesce(m.provider_message_id, v.pid),
      sent_at = CASE WHEN v.kind = 'accepted' THEN coalesce(m.sent_at, v.at) ELSE m.sent_at END,
      not_before = coalesce(v.not_before, m.not_before),
      error = CASE WHEN m.status = 'sending' AND v.kind <> 'accepted' THEN coalesce(v.error, m.error) ELSE m.error END,
      claimed_at = CASE WHEN m.status = 'sending' OR v.kind = 'accepted' THEN NULL ELSE m.claimed_at END,
      updated_at = ${now}
    FROM v
    WHERE m.workspace_id = ${workspaceId} AND m.id = v.id AND m.id IN (SELECT id FROM locked)
    RETURNING m.id`);
  return new Set(res.rows.map((r) => r.id));
}

/**
 * Sends whose answer never came (timeout, a worker killed mid-call) and that no status webhook
 * has named since: after `olderThan` they are queued again. The status webhooks of an accepted
 * send carry our id (`biz_opaque_callback_data`) and arrive within seconds, so by then a row
 * still `sending` was, as far as anyone can know, never accepted.
 */
export async function requeueUnanswered(db: DbOrTx, workspaceId: string, phoneNumberId: string, olderThan: Date, now: Date): Promise<number> {
  const waitMs = now.getTime() - olderThan.getTime();
  // The webhook that would name a send must also have been applied: while any webhook received
  // up to `waitMs` after the claim is still waiting in the pipeline (a backlog), the send stays
  // held. Without this, a pipeline running a minute behind made resends of accepted messages.
  const res = await db.execute(sql`
    UPDATE outbound_messages m SET status = 'queued', claimed_at = NULL, not_before = ${now}, updated_at = ${now}
     WHERE m.workspace_id = ${workspaceId} AND m.phone_number_id = ${phoneNumberId} AND m.status = 'sending' AND m.claimed_at < ${olderThan}
       AND NOT EXISTS (
         SELECT 1 FROM outbox_jobs j
          WHERE j.workspace_id = m.workspace_id AND j.job_type = 'process_webhook_event' AND j.status IN ('pending', 'dispatched')
            AND j.created_at < m.claimed_at + make_interval(secs => ${waitMs / 1000}))`);
  return res.rowCount ?? 0;
}

export interface QueueState {
  /** Queued and sendable (broadcasts running or none). */
  queued: number;
  sending: number;
  /** Earliest time something becomes due (a queued not_before or an unanswered send's requeue). */
  nextDueAt: Date | null;
}

export async function sendQueueState(db: DbOrTx, workspaceId: string, phoneNumberId: string, requeueAfterMs: number): Promise<QueueState> {
  const res = await db.execute<{ queued: number; sending: number; next_queued: Date | null; oldest_claim: Date | null }>(sql`
    SELECT count(*) FILTER (WHERE m.status = 'queued')::int AS queued,
           count(*) FILTER (WHERE m.status = 'sending')::int AS sending,
           min(m.not_before) FILTER (WHERE m.status = 'queued') AS next_queued,
           min(m.claimed_at) FILTER (WHERE m.status = 'sending') AS oldest_claim
      FROM outbound_messages m
     WHERE m.workspace_id = ${workspaceId} AND m.phone_number_id = ${phoneNumberId} AND m.status IN ('queued', 'sending')
       AND (m.broadcast_id IS NULL OR EXISTS (
             SELECT 1 FROM broadcasts b WHERE b.id = m.broadcast_id AND b.workspace_id = m.workspace_id AND b.status = 'running'))`);
  const r = res.rows[0];
  const candidates = [
    r?.next_queued ? new Date(r.next_queued) : null,
    r?.oldest_claim ? new Date(new Date(r.oldest_claim).getTime() + requeueAfterMs) : null,
  ].filter((d): d is Date => d !== null);
  return {
    queued: r?.queued ?? 0,
    sending: r?.sending ?? 0,
    nextDueAt: candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : null,
  };
}

/**
 * The governor goes idle only if nothing is queued or in flight, checked in the same
 * statement: an enqueuer that committed first is seen here; one that commits after reads
 * `idle` and wakes the governor. Returns whether it went idle.
 */
export async function markGovernorIdle(db: DbOrTx, workspaceId: string, phoneNumberId: string): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE send_governors g SET state = 'idle', updated_at = now()
     WHERE g.workspace_id = ${workspaceId} AND g.phone_number_id = ${phoneNumberId}
       AND NOT EXISTS (
         SELECT 1 FROM outbound_messages m
          WHERE m.workspace_id = g.workspace_id AND m.phone_number_id = g.phone_number_id AND m.status IN ('queued', 'sending')
            AND (m.broadcast_id IS NULL OR EXISTS (
                  SELECT 1 FROM broadcasts b WHERE b.id = m.broadcast_id AND b.workspace_id = m.workspace_id AND b.status = 'running')))`);
  return (res.rowCount ?? 0) > 0;
}

/**
 * For an enqueuer, after its insert committed: whether the governor must be woken (no row yet,
 * or idle), claiming the wake-up so concurrent enqueuers send one signal, not one each.
 */
export async function claimGovernorWake(db: DbOrTx, workspaceId: string, phoneNumberId: string): Promise<boolean> {
  const res = await db.execute(sql`
    INSERT INTO send_governors (workspace_id, phone_number_id, state) VALUES (${workspaceId}, ${phoneNumberId}, 'active')
    ON CONFLICT (workspace_id, phone_number_id) DO UPDATE SET state = 'active', updated_at = now()
     WHERE send_governors.state = 'idle'
    RETURNING 1`);
  return (res.rowCount ?? 0) > 0;
}

/** Business numbers with sendable work (paused broadcasts' messages are not) whose governor may need a nudge (the sweep). */
export async function governorsWithBacklog(db: DbOrTx, now: Date, limit = 500): Promise<{ workspaceId: string; phoneNumberId: string }[]> {
  const res = await db.execute<{ workspace_id: string; phone_number_id: string }>(sql`
    SELECT DISTINCT m.workspace_id, m.phone_number_id FROM outbound_messages m
     WHERE m.status IN ('queued', 'sending') AND m.not_before <= ${now}
       AND (m.broadcast_id IS NULL OR EXISTS (
             SELECT 1 FROM broadcasts b WHERE b.id = m.broadcast_id AND b.workspace_id = m.workspace_id AND b.status = 'running'))
     LIMIT ${limit}`);
  return res.rows.map((r) => ({ workspaceId: r.workspace_id, phoneNumberId: r.phone_number_id }));
}

/** Ledger seconds older than `before` are history. */
export async function pruneRateWindows(db: DbOrTx, workspaceId: string, phoneNumberId: string, before: Date): Promise<void> {
  await db.execute(sql`
    DELETE FROM send_rate_windows WHERE workspace_id = ${workspaceId} AND phone_number_id = ${phoneNumberId} AND second < ${Math.floor(before.getTime() / 1000)}`);
}
