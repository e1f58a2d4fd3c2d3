import type { Command } from 'commander';
import { AppError } from '@mos/core';
import { API_RATE_LIMIT_PER_MINUTE, getWorkspaceSettings, platformSettingsInput, updatePlatformSettings, type WorkspaceView } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

const describe = (w: WorkspaceView): string =>
  `${w.slug} (${w.id}): /v1 rate limit ${w.apiRateLimitPerMinute ?? `${API_RATE_LIMIT_PER_MINUTE.default} (default)`} requests per minute per key; ` +
  `sends ${w.throughputUpgraded ? '1000 (upgraded)' : '80'} messages per second per number`;

/** true or false, nothing else (commander hands over the raw string). */
function booleanOption(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new AppError('invalid_request', { message: '--throughput-upgraded must be true or false' });
}

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
    .option(
      '--api-rate-limit <n|default>',
      `/v1 requests per minute per API key (${API_RATE_LIMIT_PER_MINUTE.min}-${API_RATE_LIMIT_PER_MINUTE.max}); "default" returns to ${API_RATE_LIMIT_PER_MINUTE.default}`,
    )
    .option('--throughput-upgraded <true|false>', 'the provider raised this account to 1000 messages per second per number (else 80)')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          if (o.apiRateLimit === undefined && o.throughputUpgraded === undefined)
            throw new AppError('invalid_request', { message: 'give --api-rate-limit or --throughput-upgraded' });
          const input = platformSettingsInput.parse({
            ...(o.apiRateLimit === undefined ? {} : { apiRateLimitPerMinute: rateLimitOption(o.apiRateLimit) }),
            ...(o.throughputUpgraded === undefined ? {} : { throughputUpgraded: booleanOption(o.throughputUpgraded) }),
          });
          return updatePlatformSettings(deps, await scopeForSlug(deps, o.workspace), input);
        },
        describe,
      ),
    );
}
