import type { Command } from 'commander';
import { createApiKey, createApiKeyInput, listWorkspaceApiKeys, revokeWorkspaceApiKey } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

export function registerApiKeys(program: Command): void {
  const keys = program.command('api-keys').description('manage /v1 API keys');

  keys
    .command('create')
    .description('create a key; the key is printed once and never again')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--name <name>', 'what the key is for')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const { id, key, prefix } = await createApiKey(deps, await scopeForSlug(deps, o.workspace), createApiKeyInput.parse({ name: o.name }));
          return { id, key, prefix };
        },
        (r) => `created ${r.id}\nkey (shown once): ${r.key}`,
      ),
    );

  keys
    .command('revoke')
    .description('revoke a key by id')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--id <id>', 'key id (key_...)')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => ({ apiKey: await revokeWorkspaceApiKey(deps, await scopeForSlug(deps, o.workspace), o.id) }),
        (r) => `revoked ${r.apiKey.id} (${r.apiKey.prefix}…)`,
      ),
    );

  keys
    .command('list')
    .description('list keys (prefixes only)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceApiKeys(deps, await scopeForSlug(deps, o.workspace)),
        (r) => r.apiKeys.map((k) => `${k.id}  ${k.prefix}…  ${k.name}${k.revokedAt ? '  (revoked)' : ''}`).join('\n') || '(no keys)',
      ),
    );
}
