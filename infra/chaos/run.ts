/**
 * The fault scenarios against the real stack (docs/reliability.md). Started by run.sh, which
 * owns the PostgreSQL cluster and the Temporal dev server the faults stop and restart.
 *
 *   infra/chaos/run.sh [--profile short|full] [--only worker,temporal,postgres,provider,repeats,scale] [--report FILE]
 *
 * Every scenario prints its counts and its checks; any failed check makes the run exit 1.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareTemplateDatabase } from '../../packages/db/src/testing/index';
import { ROOT } from '../bench/send-stack';
import { runDuplicates } from './duplicates';
import { startStack, type Stack } from './harness';
import { formatReport } from './report';
import { runScale } from './scale';
import { PROFILES, postgresOutage, providerFaults, runLoadScenario, temporalOutage, workerKill, type LoadScenario, type ScenarioReport } from './scenarios';

const { values: args } = parseArgs({
  options: {
    profile: { type: 'string', default: 'short' },
    only: { type: 'string' },
    report: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const profile = PROFILES[args.profile as 'short' | 'full'];
if (!profile) throw new Error('--profile must be short or full');
const ALL = ['worker', 'temporal', 'postgres', 'provider', 'repeats', 'scale'] as const;
const only = new Set(args.only ? args.only.split(',') : ALL);
for (const name of only) if (!(ALL as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}: one of ${ALL.join(', ')}`);
const say = (line: string) => process.stderr.write(`${line}\n`);

const LOAD_SCENARIOS: [(typeof ALL)[number], LoadScenario][] = [
  ['worker', workerKill],
  ['temporal', temporalOutage],
  ['postgres', postgresOutage],
  ['provider', providerFaults],
];

async function main(): Promise<void> {
  const runDir = mkdtempSync('/tmp/mos-chaos-run-');
  say(`chaos (${profile.label}): ${profile.rate} deliveries/s for ${profile.loadS} s per scenario; logs in ${runDir}`);
  const bundle = join(runDir, 'workflow-bundle.js');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'services/worker/src/build-workflows.ts'), bundle], { cwd: ROOT, stdio: 'pipe' });
  await prepareTemplateDatabase();

  const reports: ScenarioReport[] = [];
  const t0 = Date.now();
  let stack: Stack | null = null;
  try {
    const loadScenarios = LOAD_SCENARIOS.filter(([k]) => only.has(k));
    if (loadScenarios.length > 0 || only.has('repeats')) {
      // One stack for the single-replica scenarios: each has its own deliveries and broadcast, and counts only those.
      stack = await startStack({ name: 'one', apis: 1, workers: 1, recipients: profile.label === 'short' ? 150 : 600, runDir, bundle });
      let prefix = 1700;
      for (const [, s] of loadScenarios) {
        say(`-- ${s.name}: ${s.fault}`);
        const r = await runLoadScenario(stack, profile, s, String(prefix++));
        reports.push(r);
        say(formatReport([r]));
      }
      if (only.has('repeats')) {
        say('-- repeats');
        const r = await runDuplicates(stack, String(prefix++));
        reports.push(r);
        say(formatReport([r]));
      }
      await stack.close();
      stack = null;
    }
    if (only.has('scale')) {
      say('-- two API processes and two workers');
      const r = await runScale(profile, runDir, bundle);
      reports.push(r);
      say(formatReport([r]));
    }
  } finally {
    await stack?.close();
  }
  const text = formatReport(reports, { profile, totalS: Math.round((Date.now() - t0) / 1000) });
  console.log(text);
  if (args.report) writeFileSync(args.report, `${text}\n\n<!-- json\n${JSON.stringify(reports, null, 2)}\n-->\n`);
  const failed = reports.flatMap((r) => r.checks.filter((c) => !c.ok).map((c) => `${r.name}: ${c.what} (${c.detail ?? ''})`));
  if (!args.keep) rmSync(runDir, { recursive: true, force: true });
  else say(`kept ${runDir}`);
  if (failed.length > 0) {
    say(`FAILED checks:\n  ${failed.join('\n  ')}`);
    process.exit(1);
  }
  say('every chaos check passed');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
