import type { ChangeContext } from './change-context';
import type { AccountUpdatedEvent, ChannelScope, ProviderError } from './events';
import { get, int, record, str, text, verbatim, type JsonRecord } from './value-readers';

/**
 * Account- and number-level fields -> `account.updated`, with the limits the send governor
 * must honour where the event states them, and one operator sentence built only from the
 * provider's enumerated values and numbers (never names, phone numbers or free text).
 * Sources: $D/webhooks/reference/{phone_number_quality_update, account_update,
 * business_capability_update, account_alerts, security} (SOURCES.md).
 */
export const ACCOUNT_FIELDS = ['phone_number_quality_update', 'account_update', 'business_capability_update', 'account_alerts', 'security'] as const;

type Limits = NonNullable<AccountUpdatedEvent['limits']>;

/** Messaging-limit tiers and their daily limits, as the provider's tables list them (-1: unlimited). */
const TIER_LIMITS: ReadonlyMap<string, number> = new Map([
  ['TIER_50', 50],
  ['TIER_250', 250],
  ['TIER_2K', 2000],
  ['TIER_10K', 10000],
  ['TIER_100K', 100000],
  ['TIER_UNLIMITED', -1],
]);
const LIMIT_TIERS: ReadonlyMap<number, string> = new Map([...TIER_LIMITS].map(([tier, limit]) => [limit, tier]));

export function normalizeAccountChange(ctx: ChangeContext, raw: unknown): void {
  const v = record(raw);
  if (!v) return ctx.skip('invalid_value');
  const alert = get(v, 'alert_info');
  const event =
    ctx.field === 'account_alerts' ? text(get(alert, 'alert_type')) : ctx.field === 'business_capability_update' ? 'CAPABILITY_UPDATE' : text(get(v, 'event'));
  const scope: ChannelScope = {
    accountId: ctx.accountId,
    phoneNumberId: ctx.field === 'account_alerts' && get(v, 'entity_type') === 'PHONE_NUMBER' ? str(get(v, 'entity_id')) : null,
    displayPhoneNumber: str(get(v, 'display_phone_number')),
  };
  const limits =
    ctx.field === 'phone_number_quality_update' || ctx.field === 'business_capability_update'
      ? limitsOf(v, event)
      : ctx.field === 'account_update' && event === 'DISABLED_UPDATE'
        ? banLimits(v)
        : null;
  const name = event ?? 'unspecified';
  ctx.emit({
    ...scope,
    family: 'account.updated',
    field: ctx.field,
    event: name,
    occurredAt: ctx.entryTime,
    summary: summaryOf(ctx.field, name, v, limits),
    limits,
    errors: [],
    value: verbatim(v),
  });
}

/** A `messages` value carrying only `errors` (e.g. 130429): the number has a problem, not one message. */
export function accountErrorsEvent(scope: ChannelScope, occurredAt: string | null, errors: ProviderError[], value: JsonRecord): AccountUpdatedEvent {
  return {
    ...scope,
    family: 'account.updated',
    field: 'messages',
    event: 'errors',
    occurredAt,
    summary: `The provider reported errors for this number: ${[...new Set(errors.map((e) => e.code))].join(', ')}.`,
    limits: null,
    errors,
    value: verbatim(value),
  };
}

function limitsOf(v: JsonRecord, event: string | null): Limits | null {
  const daily = get(v, 'max_daily_conversations_per_business');
  // `current_limit` is being replaced by `max_daily_conversations_per_business`, which the
  // provider sends as a TIER_* string or (in its own example) an integer.
  const tier = text(get(v, 'current_limit')) ?? (typeof daily === 'string' ? text(daily) : null);
  const dailyNumber = int(daily) ?? int(get(v, 'max_daily_conversation_per_phone'));
  const maxDaily = dailyNumber ?? (tier !== null ? (TIER_LIMITS.get(tier) ?? null) : null);
  const limits: Limits = {
    messagingLimitTier: tier ?? (dailyNumber !== null ? (LIMIT_TIERS.get(dailyNumber) ?? null) : null),
    maxDailyConversationsPerBusiness: maxDaily,
    maxPhoneNumbersPerAccount: int(get(v, 'max_phone_numbers_per_waba')) ?? int(get(v, 'max_phone_numbers_per_business')),
    // THROUGHPUT_UPGRADE: "the business phone number's throughput level has increased to higher throughput".
    throughputLevel: event === 'THROUGHPUT_UPGRADE' ? 'HIGH' : str(get(get(v, 'throughput'), 'level')),
    banState: null,
  };
  return Object.values(limits).some((x) => x !== null) ? limits : null;
}

/** DISABLED_UPDATE: the account's ban state is a limit too (a disabled account sends nothing). */
function banLimits(v: JsonRecord): Limits | null {
  const banState = token(get(get(v, 'ban_info'), 'waba_ban_state'));
  return banState
    ? { messagingLimitTier: null, maxDailyConversationsPerBusiness: null, maxPhoneNumbersPerAccount: null, throughputLevel: null, banState }
    : null;
}

/** Provider enumerations only, reduced to a safe alphabet and length: the value is attacker-controllable. */
function token(v: unknown): string | null {
  const s = str(v)
    ?.replace(/[^A-Za-z0-9_.:-]/g, '')
    .slice(0, 64);
  return s ? s : null;
}

const FIELD_LABELS: Record<string, string> = {
  phone_number_quality_update: 'Phone number quality update',
  account_update: 'Account update',
  business_capability_update: 'Business capability update',
  account_alerts: 'Account alert',
  security: 'Security event',
};

function summaryOf(field: string, event: string, v: JsonRecord, limits: Limits | null): string {
  const details: string[] = [];
  if (field === 'account_alerts') {
    const alert = get(v, 'alert_info');
    details.push(...[token(get(alert, 'alert_severity')), token(get(alert, 'alert_status')), token(get(v, 'entity_type'))].flatMap((x) => (x ? [x] : [])));
  }
  if (field === 'account_update') {
    const detail =
      token(get(get(v, 'violation_info'), 'violation_type')) ??
      token(get(get(v, 'ban_info'), 'waba_ban_state')) ??
      token(get(v, 'country')) ??
      token(get(get(v, 'volume_tier_info'), 'tier')) ??
      token(get(get(v, 'partner_client_certification_info'), 'status'));
    if (detail) details.push(detail);
  }
  if (limits) {
    // The tier names the daily limit too; the number is shown only when no tier matches it.
    if (limits.messagingLimitTier !== null) details.push(`messaging limit ${token(limits.messagingLimitTier) ?? 'unreadable'}`);
    else if (limits.maxDailyConversationsPerBusiness !== null) details.push(`max daily conversations ${limits.maxDailyConversationsPerBusiness}`);
    if (limits.maxPhoneNumbersPerAccount !== null) details.push(`max phone numbers ${limits.maxPhoneNumbersPerAccount}`);
    if (limits.throughputLevel !== null) details.push(`throughput ${token(limits.throughputLevel) ?? 'unreadable'}`);
  }
  const label = FIELD_LABELS[field] ?? field;
  const name = token(event) ?? 'unreadable';
  return details.length > 0 ? `${label} ${name}: ${details.join(', ')}.` : `${label} ${name}.`;
}
