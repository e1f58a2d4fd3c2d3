/**
 * The checks, by counting rows: every delivery answered 200 is stored and processed once in
 * effect, and every broadcast message was accepted by the provider exactly once.
 */
import { acceptanceCheck } from '../bench/send-report';
import { TEMPLATE, sleep } from '../bench/send-stack';
import type { Delivery } from './load';
import type { Stack } from './harness';

export interface DeliveryCounts {
  sent: number;
  answered200: number;
  /** Answers other than 200, by status ('error': no answer at all, e.g. refused connection). */
  otherAnswers: Record<string, number>;
  /** Of the 200s: rows in webhook_events. */
  stored: number;
  /** Of the stored non-duplicates: deliveries processed. */
  processed: number;
  /** Of the 200s: stored as duplicates of an earlier delivery (the provider's retries, or our repeats). */
  duplicates: number;
  /** Inbound messages answered 200 with no `messages` row. */
  effectsMissing: number;
  /** Processing failures (failed deliveries or outbox jobs). */
  failed: number;
}

export interface BroadcastCounts {
  messages: number;
  acceptedOnce: number;
  sentTwice: number;
  skipped: number;
  status: string;
}

export async function openJobs(stack: Stack): Promise<number> {
  const r = await stack.tdb.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_jobs WHERE status NOT IN ('completed', 'failed')`);
  return r.rows[0]!.n;
}

/** Polls until nothing is left to do (no open job, no message waiting to be sent, every broadcast finished); returns how long it took, or null at the deadline. */
export async function drain(stack: Stack, timeoutMs: number): Promise<number | null> {
  const t0 = Date.now();
  for (;;) {
    const jobs = await openJobs(stack).catch(() => -1);
    const live = await stack.tdb.pool
      .query<{ n: number }>(
        `SELECT (SELECT count(*) FROM broadcasts WHERE status NOT IN ('completed', 'cancelled', 'failed'))
              + (SELECT count(*) FROM outbound_messages WHERE status IN ('queued', 'sending')) AS n`,
      )
      .then((r) => Number(r.rows[0]!.n))
      .catch(() => -1);
    if (jobs === 0 && live === 0) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) return null;
    await sleep(250);
  }
}

export async function countDeliveries(stack: Stack, deliveries: Delivery[]): Promise<DeliveryCounts> {
  const ok = deliveries.filter((d) => d.status === 200);
  const otherAnswers: Record<string, number> = {};
  for (const d of deliveries) {
    if (d.status === 200) continue;
    const k = d.status === 'error' ? `error ${d.error ?? ''}`.trim() : String(d.status);
    otherAnswers[k] = (otherAnswers[k] ?? 0) + 1;
  }
  const ids = ok.map((d) => d.webhookEventId).filter((x): x is string => !!x);
  const pool = stack.tdb.pool;
  const stored = await pool.query<{ id: string; duplicate_of_id: string | null }>(`SELECT id, duplicate_of_id FROM webhook_events WHERE id = ANY($1)`, [ids]);
  const originals = stored.rows.filter((r) => r.duplicate_of_id === null).map((r) => r.id);
  const processed = await pool.query<{ n: number }>(
    `SELECT count(DISTINCT webhook_event_id)::int AS n FROM webhook_deliveries WHERE webhook_event_id = ANY($1) AND status = 'processed'`,
    [originals],
  );
  const inbound = [...new Set(ok.filter((d) => d.kind === 'message').map((d) => d.wamid))];
  const present = await pool.query<{ n: number }>(
    `SELECT count(DISTINCT provider_message_id)::int AS n FROM messages WHERE workspace_id = $1 AND provider_message_id = ANY($2)`,
    [stack.seeded.workspaceId, inbound],
  );
  const failed = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed') + (SELECT count(*) FROM outbox_jobs WHERE status = 'failed') AS n`,
  );
  return {
    sent: deliveries.length,
    answered200: ok.length,
    otherAnswers,
    stored: stored.rowCount ?? 0,
    processed: processed.rows[0]!.n,
    duplicates: stored.rows.length - originals.length,
    effectsMissing: inbound.length - present.rows[0]!.n,
    failed: Number(failed.rows[0]!.n),
  };
}

/** Every message of the workspace's broadcasts against the simulator's log of accepted sends. */
export async function countBroadcast(stack: Stack, broadcastId: string): Promise<BroadcastCounts> {
  const ids = await stack.tdb.pool.query<{ id: string }>(`SELECT id FROM outbound_messages WHERE broadcast_id = $1`, [broadcastId]);
  const status = await stack.tdb.pool.query<{ status: string }>(`SELECT status FROM broadcasts WHERE id = $1`, [broadcastId]);
  const sim = (await (await fetch(`${stack.simUrl}/_sim/messages?limit=100000`)).json()) as { messages: { callbackData?: string }[] };
  const c = acceptanceCheck(
    ids.rows.map((r) => r.id),
    sim.messages,
  );
  return {
    messages: c.messages,
    acceptedOnce: c.acceptedOnce,
    sentTwice: c.acceptedMoreThanOnce,
    skipped: c.neverAccepted,
    status: status.rows[0]?.status ?? 'missing',
  };
}

export async function startBroadcast(stack: Stack, name: string): Promise<string> {
  const res = await fetch(`${stack.apiUrls[0]}/v1/broadcasts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': stack.seeded.apiKey },
    body: JSON.stringify({
      name,
      template: { name: TEMPLATE.name, language: TEMPLATE.language, parameters: TEMPLATE.parameters },
      segment: { subscriberStatus: 'subscribed' },
    }),
  });
  const created = (await res.json()) as { broadcast?: { id: string } };
  if (res.status !== 202 || !created.broadcast) throw new Error(`POST /v1/broadcasts answered ${res.status}: ${JSON.stringify(created)}`);
  return created.broadcast.id;
}
