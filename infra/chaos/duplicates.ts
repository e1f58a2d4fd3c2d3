/**
 * Repeats: the same provider delivery posted 5 times at once, and the same Idempotency-Key
 * sent 20 times at once to each endpoint that takes one (/v1/messages, inbound webhooks, the
 * compat contact and partner-event paths). Each must be stored and take effect once, and
 * every repeat must answer what the first answered.
 */
import { inboundSigningKey, signInboundBody } from '../../packages/core/src/index';
import { TEMPLATE } from '../bench/send-stack';
import { bodyStream } from '../bench/webhook-bodies';
import { seedInboundWebhook, type Stack } from './harness';
import { postSigned, type Delivery } from './load';
import type { Check, ScenarioReport } from './scenarios';
import { countDeliveries, drain } from './verify';

const check = (what: string, ok: boolean, detail?: unknown): Check => ({ what, ok, ...(detail === undefined ? {} : { detail: JSON.stringify(detail) }) });

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const res = await fetch(url, { method: url.includes('/api/v1beta/') ? 'PUT' : 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

const times = <T>(n: number, f: () => Promise<T>) => Promise.all(Array.from({ length: n }, f));

export async function runDuplicates(stack: Stack, phonePrefix: string, deliveries = 20): Promise<ScenarioReport> {
  const pool = stack.tdb.pool;
  const ws = stack.seeded.workspaceId;
  const checks: Check[] = [];
  const notes: Record<string, unknown> = {};

  // --- one provider delivery, 5 times at once ------------------------------------------------
  // With its X-Provider-Delivery-Id the ingress stores one delivery and four duplicates; a body
  // repeated without one is stored each time, and the pipeline applies it once (by message id).
  const next = bodyStream({ mix: 'distinct', phonePrefix, conversations: 1 });
  const records: (Delivery & { withId: boolean })[] = [];
  await Promise.all(
    Array.from({ length: deliveries }, async (_, i) => {
      const body = next();
      const wamid = /"id":"(wamid\.[^"]+)"/.exec(body.toString('utf8'))![1]!;
      const withId = i % 2 === 0;
      const headers: Record<string, string> = withId ? { 'x-provider-delivery-id': `chaos-${phonePrefix}-${i}` } : {};
      const answers = await times(5, () => postSigned(stack.ingressUrls[0]!, stack.signingSecret, body, headers));
      for (const a of answers)
        records.push({
          i,
          wamid,
          withId,
          kind: 'message',
          status: a.status,
          webhookEventId: typeof a.json?.webhookEventId === 'string' ? a.json.webhookEventId : undefined,
          duplicate: a.json?.duplicate === true,
          ms: 0,
          at: Date.now(),
        });
    }),
  );
  const wamids = [...new Set(records.map((r) => r.wamid))];
  const withId = records.filter((r) => r.withId && r.status === 200);
  const originals = withId.filter((r) => !r.duplicate).length;
  const repeats = withId.filter((r) => r.duplicate).length;
  const withIdCount = Math.ceil(deliveries / 2);
  checks.push(
    check(
      '5 concurrent posts of one delivery: all answered 200',
      records.every((r) => r.status === 200),
      records.length,
    ),
    check('... with a delivery id: one stored as the original, four as its duplicates', originals === withIdCount && repeats === withIdCount * 4, {
      originals,
      repeats,
    }),
  );

  // --- the same Idempotency-Key, 20 times at once, per endpoint ------------------------------
  // Outside the seeded audience (+1555 and 7 digits from 0), so no broadcast sends to them.
  const phone = '+15559990001';
  const apiKey = { 'x-api-key': stack.seeded.apiKey };
  const endpoints: { name: string; url: string; headers: Record<string, string>; body: string; idOf(a: Answer): unknown }[] = [];
  endpoints.push({
    name: 'POST /v1/messages',
    url: `${stack.apiUrls[0]}/v1/messages`,
    headers: { ...apiKey, 'idempotency-key': `chaos-send-${phonePrefix}` },
    body: JSON.stringify({ to: phone, type: 'template', template: { name: TEMPLATE.name, language: TEMPLATE.language, parameters: TEMPLATE.parameters } }),
    idOf: (a) => (a.body.message as { id?: string } | undefined)?.id,
  });
  const inbound = await seedInboundWebhook(stack);
  const inboundBody = JSON.stringify({ customer: { msisdn: '+15559990002', name: 'Ada' } });
  const t = Math.floor(Date.now() / 1000);
  endpoints.push({
    name: 'POST /api/v1/inbound-webhooks/{slug}',
    url: inbound.url,
    headers: { 'x-service-signature': signInboundBody(inboundSigningKey(inbound.secret), t, inboundBody), 'idempotency-key': `chaos-inbound-${phonePrefix}` },
    body: inboundBody,
    idOf: (a) => a.body.messageId,
  });
  endpoints.push({
    name: 'PUT /api/v1beta/contact/',
    url: `${stack.apiUrls[0]}/api/v1beta/contact/`,
    headers: { ...apiKey, 'idempotency-key': `chaos-contact-${phonePrefix}` },
    body: JSON.stringify({ phone: '+15559990003', person_properties: { plan: 'gold' } }),
    idOf: (a) => a.body.webhookEventId,
  });
  endpoints.push({
    name: 'POST /api/v0/webhooks/incoming/partner/custom_external_event',
    url: `${stack.apiUrls[0]}/api/v0/webhooks/incoming/partner/custom_external_event`,
    headers: { ...apiKey, 'idempotency-key': `chaos-partner-${phonePrefix}` },
    body: JSON.stringify({ event_name: 'order_shipped', phone: '+15559990004' }),
    idOf: (a) => a.body.webhookEventId,
  });
  const perEndpoint: Record<string, unknown> = {};
  for (const e of endpoints) {
    const answers = await times(20, () => post(e.url, e.headers, e.body));
    const statuses = [...new Set(answers.map((a) => a.status))];
    const ids = [...new Set(answers.map((a) => e.idOf(a)))];
    perEndpoint[e.name] = { statuses, distinctIds: ids.length };
    checks.push(
      check(
        `20 concurrent calls with one Idempotency-Key to ${e.name}: all answered 2xx`,
        statuses.every((s) => s >= 200 && s < 300),
        statuses,
      ),
      check(`... every answer names the same record`, ids.length === 1 && ids[0] !== undefined, ids.slice(0, 3)),
    );
  }
  notes.idempotencyKey = perEndpoint;

  const drainMs = await drain(stack, 120_000);
  // Effects, once everything is applied: one send per endpoint that sends, one compat event each.
  const sim = (await (await fetch(`${stack.simUrl}/_sim/messages?limit=100000`)).json()) as { messages: { to?: string; waId?: string }[] };
  const sentTo = (p: string) => sim.messages.filter((m) => (m.waId ?? m.to) === p.slice(1)).length;
  const compatEvents = await pool.query<{ topic: string; originals: number; duplicates: number }>(
    `SELECT topic, count(*) FILTER (WHERE duplicate_of_id IS NULL)::int AS originals, count(*) FILTER (WHERE duplicate_of_id IS NOT NULL)::int AS duplicates
       FROM webhook_events WHERE workspace_id = $1 AND source = 'compat' GROUP BY topic`,
    [ws],
  );
  const byTopic = Object.fromEntries(compatEvents.rows.map((r) => [r.topic, r]));
  const runs = await pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM inbound_webhook_runs WHERE workspace_id = $1 GROUP BY status`,
    [ws],
  );
  const runsBy = Object.fromEntries(runs.rows.map((r) => [r.status, r.n]));
  notes.effects = { sentViaV1: sentTo(phone), sentViaInbound: sentTo('+15559990002'), inboundRuns: runsBy, compat: byTopic };
  checks.push(
    check('/v1/messages: the provider got the message once', sentTo(phone) === 1, sentTo(phone)),
    check(
      'inbound webhook: one queued run and 19 skipped duplicates, one message sent',
      runsBy.queued === 1 && runsBy.skipped_duplicate === 19 && sentTo('+15559990002') === 1,
      notes.effects,
    ),
    check(
      'compat contact upsert: one event, 19 duplicates',
      byTopic.contact_upsert?.originals === 1 && byTopic.contact_upsert?.duplicates === 19,
      byTopic.contact_upsert,
    ),
    check(
      'compat partner event: one event, 19 duplicates',
      byTopic.partner_event?.originals === 1 && byTopic.partner_event?.duplicates === 19,
      byTopic.partner_event,
    ),
    check('the queue drained', drainMs !== null, drainMs),
  );
  const counts = await countDeliveries(stack, records);
  const messages = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND provider_message_id = ANY($2)`, [
    ws,
    wamids,
  ]);
  checks.push(
    check('every delivery answered 200 is stored', counts.stored === counts.answered200, counts),
    check(
      'each repeated delivery took effect once (one message row each)',
      counts.effectsMissing === 0 && messages.rows[0]!.n === deliveries,
      messages.rows[0]!.n,
    ),
    check('every stored original is processed', counts.processed === records.filter((r) => r.status === 200 && !r.duplicate).length, counts.processed),
  );
  return {
    name: 'repeats',
    fault: '1 delivery x5 and 1 Idempotency-Key x20, concurrently',
    deliveries: counts,
    broadcast: null,
    drainMs,
    peakQueue: 0,
    notes,
    checks,
  };
}
