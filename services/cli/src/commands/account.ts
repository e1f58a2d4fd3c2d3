import type { Command } from 'commander';
import { LIMITS } from '@mos/core';
import { accountEventsQuery, listWorkspaceAccountEvents, listWorkspaceChannelLimits, type AccountEventView, type ChannelLimitView } from '@mos/app';
import { scopeForSlug } from '../context';
import { run } from '../output';

/** The same page bounds as GET /internal/account-events and tRPC account.events. */
const PAGE = LIMITS.accountEvents;

const eventLine = (e: AccountEventView) => `${e.occurredAt ?? `(recorded ${e.recordedAt})`}  ${e.field}  ${e.event}  ${e.summary}`;

const limitLine = (l: ChannelLimitView) => {
  const who = l.scope === 'account' ? `account ${l.accountId}` : `number ${l.displayPhoneNumber ?? l.phoneNumberId}`;
  const parts = [
    l.messagingLimitTier && `tier ${l.messagingLimitTier}`,
    l.maxDailyConversations !== null && `max daily conversations ${l.maxDailyConversations}`,
    l.maxPhoneNumbers !== null && `max numbers ${l.maxPhoneNumbers}`,
    l.throughputLevel && `throughput ${l.throughputLevel}`,
    l.qualityEvent && `quality ${l.qualityEvent}`,
    l.banState && `ban ${l.banState}`,
  ].filter(Boolean);
  return `${who}: ${parts.join(', ') || '(nothing stated)'}  (last: ${l.lastField ?? '-'} ${l.lastEvent ?? ''} ${l.lastEventAt ?? ''})`.trimEnd();
};

/** What the provider said about a workspace's business account and numbers (docs/account.md). */
export function registerAccount(program: Command): void {
  const account = program.command('account').description("the provider's account events and sending limits for a workspace");

  account
    .command('events')
    .description('list account events, newest first')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--field <field>', 'only this provider field (e.g. account_update, phone_number_quality_update)')
    .option('--limit <n>', `how many (${PAGE.limit.min}..${PAGE.limit.max}, default ${PAGE.limit.default})`)
    .option('--offset <n>', `skip this many (default ${PAGE.offset.default})`)
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceAccountEvents(deps, await scopeForSlug(deps, o.workspace), accountEventsQuery(o)),
        (r) => r.accountEvents.map(eventLine).join('\n') || '(no account events)',
      ),
    );

  account
    .command('limits')
    .description('show the current sending limits per scope (the account, each business number)')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceChannelLimits(deps, await scopeForSlug(deps, o.workspace)),
        (r) => r.channelLimits.map(limitLine).join('\n') || '(no limits recorded)',
      ),
    );
}
