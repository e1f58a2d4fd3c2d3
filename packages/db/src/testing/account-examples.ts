import type { AccountEventInput } from '../queries/account-events';
import type { ChannelLimitChange } from '../queries/channel-limits';

/**
 * Account events and limits as the pipeline stores them, with the values of the provider's
 * documented examples (docs/provider-reference/webhooks/, sources in SOURCES.md;
 * D = https://developers.facebook.com/documentation/business-messaging/whatsapp):
 * security_pin_reset_request.json (D/webhooks/reference/security), account_update_account_violation.json
 * and account_update_account_deleted.json (D/webhooks/reference/account_update),
 * phone_number_quality_update_throughput_upgrade.json (D/webhooks/reference/phone_number_quality_update),
 * business_capability_update.json (D/webhooks/reference/business_capability_update).
 */
export const EXAMPLE_WABA = '102290129340398';
const at = (unix: number) => new Date(unix * 1000);
const account = { accountId: EXAMPLE_WABA, phoneNumberId: null, displayPhoneNumber: null };
const number = { ...account, displayPhoneNumber: '15550783881' };

export const ACCOUNT_EVENT_EXAMPLES = {
  pinResetRequest: {
    ...number,
    field: 'security',
    event: 'PIN_RESET_REQUEST',
    occurredAt: at(1748811473),
    summary: 'Security event PIN_RESET_REQUEST.',
    errors: [],
    value: { display_phone_number: '15550783881', event: 'PIN_RESET_REQUEST', requester: '61555822107539' },
  },
  accountViolation: {
    ...account,
    field: 'account_update',
    event: 'ACCOUNT_VIOLATION',
    occurredAt: at(1743451903),
    summary: 'Account update ACCOUNT_VIOLATION: ADULT.',
    errors: [],
    value: { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'ADULT' } },
  },
  throughputUpgrade: {
    ...number,
    field: 'phone_number_quality_update',
    event: 'THROUGHPUT_UPGRADE',
    occurredAt: at(1748454394),
    summary: 'Phone number quality update THROUGHPUT_UPGRADE: messaging limit TIER_UNLIMITED, throughput HIGH.',
    errors: [],
    value: { display_phone_number: '15550783881', event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' },
  },
  accountDeleted: {
    ...account,
    field: 'account_update',
    event: 'ACCOUNT_DELETED',
    occurredAt: at(1743451903),
    summary: 'Account update ACCOUNT_DELETED.',
    errors: [],
    value: { event: 'ACCOUNT_DELETED' },
  },
} satisfies Record<string, AccountEventInput>;

export const CHANNEL_LIMIT_EXAMPLES = {
  /** The number's limits from the throughput upgrade (an unlimited tier: -1 conversations). */
  throughputUpgrade: {
    scope: 'phone_number',
    ...number,
    field: 'phone_number_quality_update',
    event: 'THROUGHPUT_UPGRADE',
    occurredAt: at(1748454394),
    stated: { messagingLimitTier: 'TIER_UNLIMITED', maxDailyConversations: -1, throughputLevel: 'HIGH', qualityEvent: 'THROUGHPUT_UPGRADE' },
  },
  capabilityUpdate: {
    scope: 'account',
    ...account,
    field: 'business_capability_update',
    event: 'CAPABILITY_UPDATE',
    occurredAt: at(1739321024),
    stated: { maxDailyConversations: 2000, maxPhoneNumbers: 25 },
  },
} satisfies Record<string, ChannelLimitChange>;
