import type { Command } from 'commander';
import { API_RATE_LIMIT_PER_MINUTE, getWorkspaceSettings, providerSettingsInput, updateWorkspaceSettings, type WorkspaceView } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

const describe = (w: WorkspaceView): string =>
  `${w.slug} (${w.id}): /v1 rate limit ${w.apiRateLimitPerMinute ?? `${API_RATE_LIMIT_PER_MINUTE.default} (default)`} requests per minute per key`;

/** `default` clears the override; anything else must be an integer the settings schema accepts. */
function rateLimitOption(value: string): number | null {
  if (value === 'default') return null;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

export function registerWorkspace(program: Command): void {
  const ws = program.command('workspace').description("show or change a workspace's platform settings");

  ws.command('show')
    .description("a workspace's settings")
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) => run(o, async ({ deps }) => getWorkspaceSettings(deps, await scopeForSlug(deps, o.workspace)), describe));

  ws.command('set')
    .description('change settings (audited like a settings change in the control plane)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption(
      '--api-rate-limit <n|default>',
      `/v1 requests per minute per API key (${API_RATE_LIMIT_PER_MINUTE.min}-${API_RATE_LIMIT_PER_MINUTE.max}); "default" returns to ${API_RATE_LIMIT_PER_MINUTE.default}`,
    )
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const input = providerSettingsInput.parse({ apiRateLimitPerMinute: rateLimitOption(o.apiRateLimit) });
          return updateWorkspaceSettings(deps, await scopeForSlug(deps, o.workspace), input);
        },
        describe,
      ),
    );
}
