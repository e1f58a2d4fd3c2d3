/**
 * End-to-end webhook pipeline benchmark: signed POSTs to the real ingress route at a fixed
 * rate (open loop), the real worker runtime (relay + Temporal worker, same code as up.sh),
 * a fresh migrated database and the Temporal server at TEMPORAL_ADDRESS.
 *
 * Reports p50/p99 from the 200 response to the delivery's processedAt, the ingest latency,
 * and how long the queue (pending jobs) takes to get back to 0 after the load stops.
 *
 *   DATABASE_URL=... TEMPORAL_ADDRESS=... pnpm exec tsx infra/bench/end-to-end.ts \
 *     [--rate 100] [--duration 60] [--fixture inbound-text] [--activities 100] [--cached 1000] \
 *     [--wf-tasks 40] [--batch 100] [--poll 1000] [--effects default|noop] [--direct] [--json]
 *
 * Imports go through relative paths because infra/ is not a workspace package.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createLogger, loadEnv } from '../../packages/config/src/index';
import { createVault } from '../../packages/db/src/index';
import { providerClientFromEnv } from '../../packages/provider/src/index';
import { lazyTemporalClient } from '../../packages/app/src/index';
import { signProviderBody } from '../../packages/core/src/index';
import { setProviderIngressWorkspace, upsertWorkspace } from '../../packages/db/src/index';
import { createTestDatabase, prepareTemplateDatabase, storeTestWebhookJob } from '../../packages/db/src/testing/index';
import { createApiApp } from '../../services/api/src/app';
import { startWorkerRuntime } from '../../services/worker/src/index';
import { composeEffects } from '../../workflows/src/index';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '60' },
    fixture: { type: 'string', default: 'inbound-text' },
    activities: { type: 'string', default: '100' },
    cached: { type: 'string', default: '1000' },
    'wf-tasks': { type: 'string', default: '40' },
    batch: { type: 'string', default: '100' },
    poll: { type: 'string', default: '1000' },
    'drain-timeout': { type: 'string', default: '120' },
    /** noop: effects record nothing beyond the delivery (isolates pipeline + Temporal cost). */
    effects: { type: 'string', default: 'default' },
    /** Skip HTTP: insert event + job + NOTIFY in one transaction, as the ingress does. */
    direct: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const log = createLogger({ name: 'bench', level: process.env.LOG_LEVEL ?? 'warn' });

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Each request is a distinct provider delivery: its own delivery id and message id. */
function bodyFor(template: string, i: number): Buffer {
  return Buffer.from(template.replace(/"id": "wamid\.[^"]+"/, `"id": "wamid.bench-${i}-${randomBytes(4).toString('hex')}"`));
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS) throw new Error('set DATABASE_URL and TEMPORAL_ADDRESS');
  await prepareTemplateDatabase();
  const tdb = await createTestDatabase({ max: 20 });
  const env = loadEnv({ ...process.env, MOS_ENV: 'test', LOG_LEVEL: 'warn', WEBHOOK_INGRESS_CACHE_MS: '60000' });
  const deps = {
    db: tdb.db,
    env,
    log,
    clock: { now: () => new Date() },
    vault: createVault(randomBytes(32), env),
    provider: providerClientFromEnv(env),
    temporal: lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
  };
  const secret = randomBytes(16).toString('hex');
  const { workspace } = await upsertWorkspace(tdb.db, 'bench', { wabaId: '102290129340398', phoneNumberId: '106540352242922' });
  await setProviderIngressWorkspace(tdb.db, workspace.id);
  await deps.vault.set(tdb.db, workspace.id, 'webhook-signing-secret', secret);

  const server = createApiApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/messaging`;

  const taskQueue = `bench-${randomBytes(4).toString('hex')}`;
  const runtime = await startWorkerRuntime({
    db: tdb.db,
    databaseUrl: tdb.url,
    log,
    temporal: { address: process.env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE, taskQueue },
    ...(args.effects === 'noop' ? { effects: composeEffects() } : {}),
    relay: { batchSize: Number(args.batch), pollIntervalMs: Number(args.poll) },
    worker: {
      maxConcurrentActivityTaskExecutions: Number(args.activities),
      maxCachedWorkflows: Number(args.cached),
      maxConcurrentWorkflowTaskExecutions: Number(args['wf-tasks']),
    },
  });

  const template = readFileSync(new URL(`../../packages/core/src/webhooks/fixtures/${args.fixture}.json`, import.meta.url), 'utf8');
  const sent: { eventId?: string; t200?: number; ingestMs?: number; status?: number }[] = [];
  const post = async (i: number) => {
    const body = bodyFor(template, i);
    const rec: (typeof sent)[number] = {};
    sent.push(rec);
    const t0 = Date.now();
    if (args.direct) return storeDirect(body, rec, t0);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signProviderBody(secret, body), 'x-provider-delivery-id': `bench-${i}-${t0}` },
        body,
      });
      const json = (await res.json()) as { webhookEventId?: string };
      rec.t200 = Date.now();
      rec.status = res.status;
      rec.ingestMs = rec.t200 - t0;
      rec.eventId = json.webhookEventId;
    } catch (err) {
      rec.status = -1;
      log.warn({ err: (err as Error).message }, 'request failed');
    }
  };

  // The ingress's transaction shape without HTTP: event row, job row, NOTIFY on commit.
  async function storeDirect(body: Buffer, rec: (typeof sent)[number], t0: number): Promise<void> {
    const { webhookEventId: eventId } = await tdb.db.transaction((tx) => storeTestWebhookJob(tx, workspace.id, { body, receivedAt: new Date(t0) }));
    rec.t200 = Date.now();
    rec.status = 200;
    rec.ingestMs = rec.t200 - t0;
    rec.eventId = eventId;
  }

  const counts = async () => {
    const r = await tdb.pool.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM outbox_jobs GROUP BY status`);
    return Object.fromEntries(r.rows.map((x) => [x.status, x.n])) as Record<string, number>;
  };

  // Warm-up: bundle caches, connections and JIT, then start from an empty queue.
  await Promise.all(Array.from({ length: 20 }, (_, i) => post(-1 - i)));
  for (let c = await counts(); (c.pending ?? 0) + (c.dispatched ?? 0) > 0; c = await counts()) await new Promise((r) => setTimeout(r, 100));
  sent.length = 0;

  // Open loop: requests are scheduled by wall time, never by earlier responses.
  const timeline: { t: number; pending: number; dispatched: number; completed: number }[] = [];
  const loadStart = Date.now();
  const sampler = setInterval(() => {
    void counts().then((c) =>
      timeline.push({ t: Date.now() - loadStart, pending: c.pending ?? 0, dispatched: c.dispatched ?? 0, completed: c.completed ?? 0 }),
    );
  }, 500);
  const inflight: Promise<void>[] = [];
  const total = Math.round(RATE * DURATION_S);
  for (let i = 0; i < total; i++) {
    const due = loadStart + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(post(i));
  }
  await Promise.all(inflight);
  const loadEnd = Date.now();

  // Drain: when does pending reach 0, and when is every job finished?
  let queueZeroAt: number | null = null;
  let drainedAt: number | null = null;
  let peakPending = Math.max(0, ...timeline.map((s) => s.pending));
  while (Date.now() - loadEnd < Number(args['drain-timeout']) * 1000) {
    const c = await counts();
    peakPending = Math.max(peakPending, c.pending ?? 0);
    if (queueZeroAt === null && (c.pending ?? 0) === 0) queueZeroAt = Date.now();
    if ((c.pending ?? 0) + (c.dispatched ?? 0) === 0) {
      drainedAt = Date.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  clearInterval(sampler);

  const deliveries = await tdb.pool.query<{ webhook_event_id: string; status: string; processed_at: Date }>(
    `SELECT webhook_event_id, status, processed_at FROM webhook_deliveries`,
  );
  const byEvent = new Map(deliveries.rows.map((d) => [d.webhook_event_id, d]));
  const e2e: number[] = [];
  const ingest: number[] = [];
  let failed = 0;
  let missing = 0;
  for (const s of sent) {
    if (s.status !== 200 || !s.eventId) continue;
    ingest.push(s.ingestMs!);
    const d = byEvent.get(s.eventId);
    if (!d) missing++;
    else if (d.status !== 'processed') failed++;
    else e2e.push(d.processed_at.getTime() - s.t200!);
  }
  e2e.sort((a, b) => a - b);
  ingest.sort((a, b) => a - b);

  const report = {
    loadavg: (await import('node:os')).loadavg().map((x) => +x.toFixed(2)),
    config: {
      direct: args.direct,
      effects: args.effects,
      rate: RATE,
      durationS: DURATION_S,
      fixture: args.fixture,
      activities: Number(args.activities),
      cachedWorkflows: Number(args.cached),
      workflowTasks: Number(args['wf-tasks']),
      relayBatch: Number(args.batch),
    },
    requests: { sent: sent.length, ok200: sent.filter((s) => s.status === 200).length, non200: sent.filter((s) => s.status !== 200).length },
    achievedRatePerS: +(sent.length / ((loadEnd - loadStart) / 1000)).toFixed(1),
    ingestMs: { p50: pct(ingest, 50), p99: pct(ingest, 99) },
    endToEndMs: { p50: pct(e2e, 50), p99: pct(e2e, 99), max: e2e[e2e.length - 1] ?? NaN, processed: e2e.length, failed, missing },
    queue: {
      peakPending,
      zeroAfterLoadMs: queueZeroAt === null ? null : Math.max(0, queueZeroAt - loadEnd),
      allFinishedAfterLoadMs: drainedAt === null ? null : drainedAt - loadEnd,
    },
    timeline: args.json ? timeline : undefined,
  };
  console.log(JSON.stringify(report, null, args.json ? 2 : undefined));

  await runtime.stop();
  await new Promise((r) => server.close(r));
  await tdb.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
