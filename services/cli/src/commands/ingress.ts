import type { Command } from 'commander';
import { clearProviderIngress, setProviderIngress, showProviderIngress, slugSchema, type ProviderIngressView } from '@mos/app';
import { run } from '../output';

const human = (r: ProviderIngressView) =>
  r.workspace
    ? `shared provider paths -> workspace ${r.workspace.slug} (${r.workspace.id})`
    : 'shared provider paths: not configured (503); per-workspace URLs still work';

/** Platform-level: which workspace the shared /webhooks/messaging and /webhooks/provider paths feed. */
export function registerIngress(program: Command): void {
  const ingress = program.command('ingress').description('which workspace the shared provider webhook paths resolve to (platform admin only)');

  ingress
    .command('show')
    .description('print the workspace the shared provider paths resolve to')
    .option('--json', 'print JSON')
    .action((o) => run(o, ({ deps }) => showProviderIngress(deps), human));

  ingress
    .command('set')
    .description('resolve the shared provider paths to this workspace (audited in both workspaces)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) => run(o, ({ deps }) => setProviderIngress(deps, slugSchema.parse(o.workspace)), human));

  ingress
    .command('clear')
    .description('resolve the shared provider paths to no workspace (they answer 503)')
    .option('--json', 'print JSON')
    .action((o) => run(o, ({ deps }) => clearProviderIngress(deps), human));
}
