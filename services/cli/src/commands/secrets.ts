import type { Command } from 'commander';
import { SECRET_NAMES } from '@mos/core';
import { listWorkspaceSecrets, setSecretInput, setWorkspaceSecret } from '@mos/app';
import { scopeForSlug, valueOrStdin } from '../context';
import { run } from '../output';

export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('manage the workspace secret vault (values are never printed)');

  secrets
    .command('set')
    .description(`store a secret: NAME is one of ${SECRET_NAMES.join(', ')}; VALUE - reads stdin`)
    .argument('<name>', 'secret name')
    .argument('<value>', 'secret value, or - to read stdin')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((name: string, value: string, o) =>
      run(
        o,
        async ({ deps }) => {
          const input = setSecretInput.parse({ name, value: await valueOrStdin(value) });
          return { secret: await setWorkspaceSecret(deps, await scopeForSlug(deps, o.workspace), input) };
        },
        (r) => `stored ${r.secret.name}`,
      ),
    );

  secrets
    .command('list')
    .description('list secret names and update times')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceSecrets(deps, await scopeForSlug(deps, o.workspace)),
        (r) => r.secrets.map((s) => `${s.name.padEnd(24)} updated ${s.updatedAt}`).join('\n') || '(no secrets)',
      ),
    );
}
