import type { Command } from 'commander';
import { bootstrapWorkspace } from '@mos/app';
import { valueOrStdin } from '../context';
import { run } from '../output';

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('create or update a workspace and its owner (idempotent)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'owner email')
    .requiredOption('--password <password>', 'owner password (- reads stdin)')
    .option('--waba-id <id>', 'provider business account id')
    .option('--phone-number-id <id>', 'provider phone number id')
    .option('--provider-ingress', 'resolve the provider webhook paths to this workspace')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) =>
          bootstrapWorkspace(deps, {
            workspace: o.workspace,
            email: o.email,
            password: await valueOrStdin(o.password),
            wabaId: o.wabaId,
            phoneNumberId: o.phoneNumberId,
            providerIngress: Boolean(o.providerIngress),
          }),
        (r) => `workspace ${r.workspace.slug} (${r.workspace.id}); owner ${r.operator.email} (${r.operator.id})`,
      ),
    );
}
