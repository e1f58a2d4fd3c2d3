import type { Command } from 'commander';
import { AppError } from '@mos/core';
import {
  adminCreateInboundWebhookInput,
  createInboundWebhook,
  deleteWorkspaceInboundWebhook,
  disableInboundWebhook,
  inboundWebhookIdForSlug,
  listInboundWebhookRuns,
  listInboundRunsInput,
  listWorkspaceInboundWebhooks,
  promoteInboundWebhook,
  rotateInboundWebhookSecret,
  type InboundWebhookView,
} from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

function parseMapping(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', { message: '--mapping must be a JSON object of target -> expression' });
  }
}

const state = (w: Pick<InboundWebhookView, 'enabled' | 'dryRun'>) => `${w.enabled ? 'enabled' : 'disabled'}, ${w.dryRun ? 'dry-run' : 'live'}`;

/**
 * Inbound webhooks for platform admins. Like Settings, `create` makes a disabled dry-run;
 * unlike Settings, this is where a configuration is promoted (enabled, and with --live sent
 * for real). Secrets are printed by create and rotate only, once.
 */
export function registerInboundWebhooks(program: Command): void {
  const cmd = program.command('inbound-webhooks').description('inbound webhooks from external systems (docs/inbound-webhooks.md)');

  cmd
    .command('create')
    .description('create a configuration (disabled, dry-run); prints its one-time secret')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--name <name>', 'what sends to it')
    .option('--template <name>', 'the template it sends (overrides the mapping)')
    .option('--locale <locale>', 'the template locale (overrides the mapping)')
    .requiredOption('--mapping <json>', 'JSON object: target -> expression')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const input = adminCreateInboundWebhookInput.parse({
            name: o.name,
            templateName: o.template,
            templateLocale: o.locale,
            mapping: parseMapping(o.mapping),
          });
          const created = await createInboundWebhook(deps, await scopeForSlug(deps, o.workspace), input, 'admin');
          const w = created.inboundWebhook;
          return {
            id: w.id,
            slug: w.slug,
            secret: created.secret,
            standardWebhooksSecret: created.standardWebhooksSecret,
            enabled: w.enabled,
            dryRun: w.dryRun,
            path: w.path,
          };
        },
        (r) => `created ${r.id} (${state(r)})\nPOST ${r.path}\nsecret (shown once): ${r.secret}`,
      ),
    );

  const bySlug = (c: Command) =>
    c.requiredOption('--workspace <slug>', 'workspace slug').requiredOption('--slug <slug>', 'the configuration’s URL slug').option('--json', 'print JSON');

  bySlug(cmd.command('promote').description('enable a configuration; with --live also leave dry-run, so requests send'))
    .option('--live', 'send for real (leave dry-run)')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const scope = await scopeForSlug(deps, o.workspace);
          const w = await promoteInboundWebhook(deps, scope, { id: await inboundWebhookIdForSlug(deps, scope, o.slug), live: Boolean(o.live) });
          return { id: w.id, slug: w.slug, enabled: w.enabled, dryRun: w.dryRun };
        },
        (r) => `${r.slug}: ${state(r)}`,
      ),
    );

  bySlug(cmd.command('disable').description('disable a configuration (requests then get 404)')).action((o) =>
    run(
      o,
      async ({ deps }) => {
        const scope = await scopeForSlug(deps, o.workspace);
        const w = await disableInboundWebhook(deps, scope, await inboundWebhookIdForSlug(deps, scope, o.slug));
        return { id: w.id, slug: w.slug, enabled: w.enabled, dryRun: w.dryRun };
      },
      (r) => `${r.slug}: ${state(r)}`,
    ),
  );

  bySlug(cmd.command('rotate').description('replace the secret; the old one stops verifying at once')).action((o) =>
    run(
      o,
      async ({ deps }) => {
        const scope = await scopeForSlug(deps, o.workspace);
        const r = await rotateInboundWebhookSecret(deps, scope, await inboundWebhookIdForSlug(deps, scope, o.slug));
        return { id: r.inboundWebhook.id, slug: r.inboundWebhook.slug, secret: r.secret, standardWebhooksSecret: r.standardWebhooksSecret };
      },
      (r) => `rotated ${r.slug}\nsecret (shown once): ${r.secret}`,
    ),
  );

  bySlug(cmd.command('delete').description('delete a configuration and its runs')).action((o) =>
    run(
      o,
      async ({ deps }) => {
        const scope = await scopeForSlug(deps, o.workspace);
        return deleteWorkspaceInboundWebhook(deps, scope, await inboundWebhookIdForSlug(deps, scope, o.slug));
      },
      () => 'deleted',
    ),
  );

  cmd
    .command('list')
    .description('list configurations (never their secrets)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceInboundWebhooks(deps, await scopeForSlug(deps, o.workspace)),
        (r) =>
          r.inboundWebhooks.map((w) => `${w.id}  ${w.slug}  ${state(w)}  ${w.templateName ?? '(mapped template)'}  ${w.secretPrefix}…  ${w.name}`).join('\n') ||
          '(no inbound webhooks)',
      ),
    );

  bySlug(cmd.command('runs').description('recent runs of a configuration, newest first'))
    .option('--limit <n>', 'how many', '20')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const scope = await scopeForSlug(deps, o.workspace);
          const input = listInboundRunsInput.parse({ id: await inboundWebhookIdForSlug(deps, scope, o.slug), limit: Number(o.limit) });
          return listInboundWebhookRuns(deps, scope, input);
        },
        (r) =>
          r.runs
            .map((x) => `${x.id}  ${x.receivedAt}  ${x.status}  ${x.httpStatus ?? ''}  ${x.message ? `${x.message.id} ${x.message.status}` : ''}`)
            .join('\n') || '(no runs)',
      ),
    );
}
