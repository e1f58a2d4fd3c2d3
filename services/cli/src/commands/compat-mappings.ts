import type { Command } from 'commander';
import { AppError } from '@mos/core';
import { createCompatMapping, createCompatMappingInput, deleteWorkspaceCompatMapping, listCompatMappings, listCompatMappingsInput } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

interface AddOptions {
  journey: string;
  organization?: string;
  flow?: string;
  trigger?: string;
  legacyPath?: string;
}

/** Exactly one of the two mapping kinds, from flags. */
function addInput(o: AddOptions): unknown {
  const rest = o.organization !== undefined || o.flow !== undefined || o.trigger !== undefined;
  if (rest === (o.legacyPath !== undefined)) {
    throw new AppError('invalid_request', { message: 'give either --organization and --flow (with an optional --trigger), or --legacy-path' });
  }
  if (o.legacyPath !== undefined) return { kind: 'legacy_path', journeyId: o.journey, legacyPath: o.legacyPath };
  return { kind: 'rest_trigger', journeyId: o.journey, organizationId: o.organization, flowId: o.flow, triggerId: o.trigger };
}

/** Legacy trigger paths to journeys: the same functions as tRPC compatMappings.* (docs/journeys.md). */
export function registerCompatMappings(program: Command): void {
  const cmd = program.command('compat-mappings').description('legacy journey-trigger paths -> journeys (docs/journeys.md)');

  cmd
    .command('add')
    .description('map a rest-trigger organization/flow[/trigger] or a legacy path to an api journey')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--journey <id>', 'journey id (jrn_…), triggered by api')
    .option('--organization <id>', 'rest-trigger organization id')
    .option('--flow <id>', 'rest-trigger flow id')
    .option('--trigger <id>', 'rest-trigger trigger id (absent: the flow’s triggers without a mapping of their own)')
    .option('--legacy-path <path>', 'the path after /compat/journey-trigger/')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => createCompatMapping(deps, await scopeForSlug(deps, o.workspace), createCompatMappingInput.parse(addInput(o))),
        (r) => `created ${r.compatMapping.id}: ${r.compatMapping.path} -> ${r.compatMapping.journeyId} (${r.compatMapping.journeyName})`,
      ),
    );

  cmd
    .command('list')
    .description('list the workspace’s mappings, newest first')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--journey <id>', 'only this journey’s')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listCompatMappings(deps, await scopeForSlug(deps, o.workspace), listCompatMappingsInput.parse({ journeyId: o.journey })),
        (r) => r.compatMappings.map((m) => `${m.id}  ${m.path}  -> ${m.journeyId} (${m.journeyName})`).join('\n') || '(no compat mappings)',
      ),
    );

  cmd
    .command('remove')
    .description('delete a mapping: its path stops resolving at once')
    .argument('<id>', 'mapping id (cmap_…)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((id: string, o) =>
      run(
        o,
        async ({ deps }) => ({ ...(await deleteWorkspaceCompatMapping(deps, await scopeForSlug(deps, o.workspace), id)), removed: id }),
        (r) => `removed ${r.removed}`,
      ),
    );
}
