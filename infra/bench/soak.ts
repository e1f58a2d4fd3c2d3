/**
 * Soak (issue 15, "Load"): signed provider webhooks at a steady rate for minutes, in the
 * realistic mix (per conversation an inbound text, then sent / delivered / read of our reply),
 * while a broadcast sends, against the services as ./infra/up.sh runs them (simulator, API and
 * worker each `tsx <main.ts>` in its own process; infra/chaos/harness.ts).
 *
 *   source "$(infra/bench/stack.sh)"
 *   pnpm exec tsx infra/bench/soak.ts --rate 300 --duration 600 --recipients 3000
 *   infra/bench/stack.sh stop
 *
 * Reports: ingest latency (request to answer) p50 / p99 / max over the run and p99 per minute,
 * answers by status, every delivery answered 200 stored and processed (infra/chaos/verify.ts),
 * the broadcast's messages each accepted once, when the queue was empty again after the load,
 * the peak queue, and the RSS of each process (VmRSS) after the warm-up, at the end of the
 * load, and its peak, sampled every 10 s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareTemplateDatabase } from '../../packages/db/src/testing/index';
import { startStack } from '../chaos/harness';
import { startLoad, type Delivery } from '../chaos/load';
import { countBroadcast, countDeliveries, drain, openJobs, startBroadcast } from '../chaos/verify';
import { ROOT, livePid, sleep } from './send-stack';
import { bodyStream } from './webhook-bodies';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    duration: { type: 'string', default: '600' },
    recipients: { type: 'string', default: '3000' },
    'warm-up': { type: 'string', default: '30' },
    'drain-timeout': { type: 'string', default: '3600' },
    'temporal-pid': { type: 'string', default: process.env.MOS_BENCH_TEMPORAL_PID ?? '' },
    keep: { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const WARM_UP_S = Number(args['warm-up']);
const say = (line: string) => process.stderr.write(`${line}\n`);

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function pct(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS) throw new Error('set DATABASE_URL and TEMPORAL_ADDRESS: source "$(infra/bench/stack.sh)"');
  const runDir = mkdtempSync('/tmp/mos-soak-');
  const bundle = join(runDir, 'workflow-bundle.js');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'services/worker/src/build-workflows.ts'), bundle], { cwd: ROOT, stdio: 'pipe' });
  await prepareTemplateDatabase();
  const stack = await startStack({ name: 'soak', apis: 1, workers: 1, recipients: Number(args.recipients), runDir, bundle });
  const temporalPid = livePid(args['temporal-pid']);
  const pids: Record<string, number> = {
    api: stack.apis[0]!.pid,
    worker: stack.workers[0]!.pid,
    simulator: stack.simulator.pid,
    'load generator': process.pid,
  };
  if (temporalPid) pids.temporal = temporalPid;
  say(`soak: ${RATE}/s for ${DURATION_S} s, a broadcast to ${args.recipients}; logs in ${runDir}`);
  try {
    const broadcastId = await startBroadcast(stack, 'soak');
    const load = startLoad({
      urls: stack.ingressUrls,
      secret: stack.signingSecret,
      rate: RATE,
      durationS: DURATION_S,
      next: bodyStream({ mix: 'realistic', phonePrefix: '1660', conversations: 50 }),
    });
    const t0 = Date.now();
    const samples: { t: number; queue: number; rss: Record<string, number | null> }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({
          t: Math.round((Date.now() - t0) / 1000),
          queue: await openJobs(stack).catch(() => -1),
          rss: Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)])),
        });
        if (samples.length % 6 === 0)
          say(`t=${samples.at(-1)!.t} s: ${load.deliveries.length} sent, queue ${samples.at(-1)!.queue}, rss ${JSON.stringify(samples.at(-1)!.rss)}`);
        await sleep(10_000);
      }
    })();
    await load.done;
    const loadEnd = samples.at(-1)!;
    const drainMs = await drain(stack, Number(args['drain-timeout']) * 1000);
    sampling = false;
    await sampler;

    const all: Delivery[] = load.deliveries;
    const measured = all.filter((d) => d.at - t0 >= WARM_UP_S * 1000 && d.status === 200).map((d) => d.ms);
    measured.sort((a, b) => a - b);
    const perMinute: { minute: number; p99: number | null; n: number }[] = [];
    for (let m = 0; m * 60 < DURATION_S; m++) {
      const ms = all.filter((d) => d.status === 200 && Math.floor((d.at - t0) / 60_000) === m).map((d) => d.ms);
      ms.sort((a, b) => a - b);
      perMinute.push({ minute: m + 1, p99: pct(ms, 99), n: ms.length });
    }
    const counts = await countDeliveries(stack, all);
    const broadcast = await countBroadcast(stack, broadcastId);
    const afterWarmUp = samples.find((s) => s.t >= WARM_UP_S) ?? samples[0]!;
    const rss = Object.fromEntries(
      Object.keys(pids).map((k) => [k, { afterWarmUp: afterWarmUp.rss[k], loadEnd: loadEnd.rss[k], peak: Math.max(...samples.map((s) => s.rss[k] ?? 0)) }]),
    );
    const report = {
      config: { rate: RATE, durationS: DURATION_S, recipients: Number(args.recipients), warmUpS: WARM_UP_S },
      achievedRate: Math.round((all.length / ((Math.max(...all.map((d) => d.at)) - t0) / 1000)) * 10) / 10,
      ingestMs: { p50: pct(measured, 50), p99: pct(measured, 99), max: measured.at(-1) ?? null },
      perMinuteP99: perMinute,
      counts,
      broadcast,
      peakQueue: Math.max(...samples.map((s) => s.queue)),
      drainAfterLoadS: drainMs === null ? null : Math.round(drainMs / 100) / 10,
      rssMb: rss,
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await stack.close();
    if (!args.keep) rmSync(runDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
