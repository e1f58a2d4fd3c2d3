/**
 * Provider webhook ingestion figures (docs/benchmarks.md). Not a test.
 *
 *   DATABASE_URL=postgres://... pnpm tsx infra/bench/ingest-latency.ts [--rate 500] [--duration 30]
 *   DATABASE_URL=postgres://... pnpm tsx infra/bench/ingest-latency.ts --capacity [--step-duration 10] [--start 250]
 *
 * Creates a fresh migrated database (the test template), bootstraps a provider-ingress
 * workspace with a signing secret, starts the API app in a child process (so the load
 * generator does not share its event loop), and fires signed requests with autocannon at a
 * fixed overall rate, each with its own X-Provider-Delivery-Id so each one stores an event
 * and enqueues a job. Reports p50/p99, non-2xx, and rows stored vs requests sent.
 * --capacity steps the rate up until p99 >= 100 ms (or errors, or the rate is not reached)
 * for the Express app and for a bare node:http handler doing the same verify + transaction.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { signProviderBody } from '@mos/core';
import { createVault, setProviderIngressWorkspace, upsertWorkspace } from '@mos/db';
import { createTestDatabase, prepareTemplateDatabase, type TestDatabase } from '@mos/db/testing';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    duration: { type: 'string', default: '30' },
    capacity: { type: 'boolean', default: false },
    'step-duration': { type: 'string', default: '10' },
    start: { type: 'string', default: '250' },
    pool: { type: 'string', default: '10' },
    /** WEBHOOK_INGRESS_CACHE_MS for the server (0 = look up workspace + secret on every request). */
    'cache-ms': { type: 'string', default: '5000' },
    /** Default: rate/50 (at least 4). autocannon paces each connection separately and they fire
     *  in step, so many slow connections turn a steady rate into bursts. */
    connections: { type: 'string' },
  },
});

const SECRET = 'bench-signing-secret';
const BODY = readFileSync(new URL('../../packages/core/src/webhooks/fixtures/inbound-text.json', import.meta.url));
const SIGNATURE = signProviderBody(SECRET, BODY);
const masterKey = randomBytes(32);

async function setup(): Promise<{ tdb: TestDatabase; workspaceId: string }> {
  await prepareTemplateDatabase();
  const tdb = await createTestDatabase({ max: 2 });
  const { workspace } = await upsertWorkspace(tdb.db, `bench-${randomBytes(3).toString('hex')}`);
  await setProviderIngressWorkspace(tdb.db, workspace.id);
  await createVault(masterKey, { MOS_ENV: 'test' }).set(tdb.db, workspace.id, 'webhook-signing-secret', SECRET);
  return { tdb, workspaceId: workspace.id };
}

async function startServer(kind: 'express' | 'bare', url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./ingest-server.ts', import.meta.url).pathname, kind], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      MOS_MASTER_KEY: masterKey.toString('hex'),
      DATABASE_POOL_MAX: args.pool,
      WEBHOOK_INGRESS_CACHE_MS: args['cache-ms'],
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, port };
}

interface RunResult {
  rate: number;
  /** autocannon's count of requests written, including ones still unanswered when it stopped. */
  sent: number;
  /** responses received within the run. */
  completed: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  achievedRps: number;
}

let seq = 0;
async function fire(port: number, rate: number, seconds: number): Promise<RunResult> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/webhooks/messaging`,
    method: 'POST',
    connections: args.connections ? Number(args.connections) : Math.max(4, Math.ceil(rate / 50)),
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: BODY,
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': SIGNATURE, 'x-provider-delivery-id': `bench-${process.pid}-${++seq}` },
        }),
      },
    ],
  });
  const sent = result.requests.sent ?? result.requests.total;
  return {
    rate,
    sent,
    completed: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    achievedRps: Math.round(result['2xx'] / seconds),
  };
}

async function countRows(tdb: TestDatabase) {
  const r = await tdb.pool.query<{ events: number; jobs: number }>(
    'SELECT (SELECT count(*)::int FROM webhook_events) AS events, (SELECT count(*)::int FROM outbox_jobs) AS jobs',
  );
  return r.rows[0]!;
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function latency() {
  const { tdb } = await setup();
  const { child, port } = await startServer('express', tdb.url);
  try {
    await fire(port, 100, 2); // warm-up (JIT, pool, resolver cache); not reported
    const before = await countRows(tdb);
    const r = await fire(port, Number(args.rate), Number(args.duration));
    // Requests still in flight when the generator stops are answered (and stored) just after.
    await new Promise((res) => setTimeout(res, 2000));
    const after = await countRows(tdb);
    const stored = { events: after.events - before.events, jobs: after.jobs - before.jobs };
    console.log(
      JSON.stringify(
        { mode: 'latency', pool: Number(args.pool), cacheMs: Number(args['cache-ms']), durationSeconds: Number(args.duration), ...r, stored },
        null,
        2,
      ),
    );
  } finally {
    await stop(child);
    await tdb.drop();
  }
}

async function capacityOf(kind: 'express' | 'bare', tdb: TestDatabase) {
  const { child, port } = await startServer(kind, tdb.url);
  const steps: RunResult[] = [];
  let best: RunResult | undefined;
  let warmup2xx = 0;
  try {
    warmup2xx = (await fire(port, 100, 2)).ok2xx;
    for (let rate = Number(args.start); ; rate = Math.round(rate * 1.5)) {
      const r = await fire(port, rate, Number(args['step-duration']));
      steps.push(r);
      console.error(`${kind} ${rate}/s: p50 ${r.p50} ms, p99 ${r.p99} ms, achieved ${r.achievedRps}/s, non2xx ${r.non2xx}, errors ${r.errors}`);
      const sustained = r.p99 < 100 && r.non2xx === 0 && r.errors === 0 && r.achievedRps >= rate * 0.95;
      if (!sustained) break;
      best = r;
    }
  } finally {
    await stop(child);
  }
  return { kind, highestSustainedRps: best?.rate ?? 0, steps, warmup2xx };
}

async function capacity() {
  const { tdb } = await setup();
  try {
    const express = await capacityOf('express', tdb);
    const bare = await capacityOf('bare', tdb);
    const rows = await countRows(tdb);
    const answered = [...express.steps, ...bare.steps].reduce((n, s) => n + s.ok2xx, express.warmup2xx + bare.warmup2xx);
    console.log(
      JSON.stringify(
        {
          mode: 'capacity',
          pool: Number(args.pool),
          stepSeconds: Number(args['step-duration']),
          express,
          bare,
          expressToBareRatio: bare.highestSustainedRps ? +(express.highestSustainedRps / bare.highestSustainedRps).toFixed(2) : null,
          answered2xxIncludingWarmups: answered,
          rowsStored: rows,
        },
        null,
        2,
      ),
    );
  } finally {
    await tdb.drop();
  }
}

await (args.capacity ? capacity() : latency());
