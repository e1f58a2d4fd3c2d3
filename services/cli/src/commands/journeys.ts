import type { Command } from 'commander';
import { LIMITS, pageQuery } from '@mos/core';
import { listJourneyRuns, listJourneyRunsInput, listJourneys } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

/** Journeys for platform admins: what exists and what its runs did. Definitions are edited through tRPC. */
export function registerJourneys(program: Command): void {
  const cmd = program.command('journeys').description('journeys and their runs (docs/journeys.md)');

  cmd
    .command('list')
    .description('list the workspace’s journeys, newest first')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listJourneys(deps, await scopeForSlug(deps, o.workspace)),
        (r) => r.journeys.map((j) => `${j.id}  ${j.status.padEnd(8)}  ${j.triggerType.padEnd(15)}  v${j.version}  ${j.name}`).join('\n') || '(no journeys)',
      ),
    );

  cmd
    .command('runs')
    .description('recent runs of a journey, newest first (no personalization data)')
    .argument('<journey>', 'journey id (jrn_…)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--limit <n>', `how many (at most ${LIMITS.journeyRuns.limit.max})`)
    .option('--json', 'print JSON')
    .action((journey: string, o) =>
      run(
        o,
        async ({ deps }) => {
          const scope = await scopeForSlug(deps, o.workspace);
          const input = listJourneyRunsInput.parse({ id: journey, ...pageQuery({ limit: o.limit }, LIMITS.journeyRuns) });
          return listJourneyRuns(deps, scope, input);
        },
        (r) =>
          r.runs
            .map((x) => `${x.id}  ${x.createdAt}  ${x.status.padEnd(9)}  ${x.contactId}  ${x.currentStep ?? '-'}  ${x.failureReason ?? ''}`.trimEnd())
            .join('\n') || '(no runs)',
      ),
    );
}
