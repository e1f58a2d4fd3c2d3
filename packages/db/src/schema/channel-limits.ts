import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

export const CHANNEL_SCOPES = ['account', 'phone_number'] as const;
export type ChannelScopeKind = (typeof CHANNEL_SCOPES)[number];

/** The limit fields a provider event can state; each has its own "as of" time in `stated_at`. */
export const CHANNEL_LIMIT_FIELDS = ['messagingLimitTier', 'maxDailyConversations', 'maxPhoneNumbers', 'throughputLevel', 'qualityEvent', 'banState'] as const;
export type ChannelLimitField = (typeof CHANNEL_LIMIT_FIELDS)[number];

/**
 * What the provider last said about sending limits, per workspace and scope: the business
 * account (`scope_key` = the account id) or one business number (`scope_key` = its display
 * number, as `phone_number_quality_update` names it, else its phone number id). Recorded for
 * the send governor (issue 12), which will read it by these keys. A field changes only for an
 * event at least as new as the one that last stated it (`stated_at`), so late deliveries never
 * lower a limit.
 */
export const channelLimits = pgTable(
  'channel_limits',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    scope: text('scope').$type<ChannelScopeKind>().notNull(),
    scopeKey: text('scope_key').notNull(),
    accountId: text('account_id'),
    phoneNumberId: text('phone_number_id'),
    displayPhoneNumber: text('display_phone_number'),
    /** TIER_250 | TIER_1K | TIER_10K | TIER_100K | TIER_UNLIMITED | ... verbatim. */
    messagingLimitTier: text('messaging_limit_tier'),
    maxDailyConversations: integer('max_daily_conversations'),
    maxPhoneNumbers: integer('max_phone_numbers'),
    throughputLevel: text('throughput_level'),
    /** The last phone_number_quality_update event (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE, THROUGHPUT_UPGRADE, ...). */
    qualityEvent: text('quality_event'),
    /** account_update DISABLED_UPDATE `ban_info.waba_ban_state` (DISABLE, REINSTATE, SCHEDULE_FOR_DISABLE). */
    banState: text('ban_state'),
    /** Per field: ISO time of the event that stated it, or null when that event had no time. */
    statedAt: jsonb('stated_at').$type<Partial<Record<ChannelLimitField, string | null>>>().notNull().default({}),
    lastField: text('last_field'),
    lastEvent: text('last_event'),
    lastEventAt: tstz('last_event_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.scope, t.scopeKey], name: 'channel_limits_pk' })],
);
