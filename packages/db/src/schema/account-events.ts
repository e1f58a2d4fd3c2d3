import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, workspaceId } from './columns';
import { workspaces } from './workspaces';

export interface StoredProviderError {
  code: number;
  title: string | null;
  message: string | null;
  details: string | null;
  href: string | null;
}

/**
 * Account- and number-level news from the provider, one row per change (`account_update`,
 * `phone_number_quality_update`, `business_capability_update`, `account_alerts`, `security`,
 * errors-only `messages` values, and template changes naming a template we cannot attach).
 * Append-only; `dedupe_key` makes a replayed delivery a no-op (docs/account.md).
 *
 * Personal data: none, except inside `security` values (who asked for a PIN reset), which
 * viewers read redacted.
 */
export const accountEvents = pgTable(
  'account_events',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The change's `field` verbatim (account_update, security, ...). */
    field: text('field').notNull(),
    /** The provider's event/type verbatim (THROUGHPUT_UPGRADE, ACCOUNT_VIOLATION, errors, ...). */
    event: text('event').notNull(),
    /** The provider's time; null when the delivery gave none. */
    occurredAt: tstz('occurred_at'),
    /** occurred_at, else when we recorded it: the listing's order. */
    eventAt: tstz('event_at').notNull(),
    summary: text('summary').notNull(),
    /** The provider's value verbatim. */
    value: jsonb('value').$type<unknown>(),
    errors: jsonb('errors').$type<StoredProviderError[]>().notNull().default([]),
    accountId: text('account_id'),
    phoneNumberId: text('phone_number_id'),
    displayPhoneNumber: text('display_phone_number'),
    /** sha256 of scope + field + event + occurred_at + canonical value. */
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_events_ws_dedupe_uq').on(t.workspaceId, t.dedupeKey),
    index('account_events_ws_event_at_idx').on(t.workspaceId, t.eventAt),
    index('account_events_ws_field_idx').on(t.workspaceId, t.field, t.eventAt),
  ],
);
