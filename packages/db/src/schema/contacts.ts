import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * A person we message. The provider knows a user by phone number, by a business-scoped
 * user id, or both (users who hide their number arrive with the user id only), so a contact
 * has at least one of them, each unique per workspace. `name` is the operator's name for them
 * (seeded from the provider profile on first contact); `profile_name`, `username` and
 * `country_code` follow the latest provider profile. After a GDPR erasure the phone number is
 * an `anon_` token, the user id and profile are null and `anonymized_at` is set.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** E.164 with +; null for a user known only by their user id. */
    phoneNumber: text('phone_number'),
    /** The provider's business-scoped user id (`user_id`, `from_user_id`, `recipient_user_id`). */
    providerUserId: text('provider_user_id'),
    /** The provider profile's username (`@name`), when the user set one. */
    username: text('username'),
    /** ISO 3166 country of the user as the provider reports it (users with hidden numbers). */
    countryCode: text('country_code'),
    name: text('name'),
    profileName: text('profile_name'),
    email: text('email'),
    /** The caller's own id for the contact (compat contact upserts key on it after the phone number). */
    externalReferenceId: text('external_reference_id'),
    /** Where the contact came from, as a compat caller labels it (`source_type`). */
    sourceType: text('source_type'),
    /** `person_properties` from compat upserts: scalars, merged key by key. */
    properties: jsonb('properties').$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** subscribed | unsubscribed | blocked */
    subscriberStatus: text('subscriber_status', { enum: ['subscribed', 'unsubscribed', 'blocked'] })
      .notNull()
      .default('subscribed'),
    /**
     * When the status was last decided (message or event time for the contact's own decisions,
     * clock time for operators). A decision older than this is ignored, so replays and
     * out-of-order deliveries of an old STOP never undo a later START.
     */
    subscriberStatusAt: tstz('subscriber_status_at'),
    /** Who made that decision (core SUBSCRIBER_STATUS_SOURCES; null: nobody yet, the default). */
    subscriberStatusSource: text('subscriber_status_source', { enum: ['keyword', 'operator', 'provider_preference'] }),
    locale: text('locale'),
    lastInboundAt: tstz('last_inbound_at'),
    /** Latest `customer_identity_changed` report: the user's security identity changed (new device, reinstall). */
    identityChangedAt: tstz('identity_changed_at'),
    anonymizedAt: tstz('anonymized_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('contacts_ws_phone_uq').on(t.workspaceId, t.phoneNumber),
    uniqueIndex('contacts_ws_user_id_uq').on(t.workspaceId, t.providerUserId),
    index('contacts_ws_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('contacts_ws_external_ref_idx')
      .on(t.workspaceId, t.externalReferenceId)
      .where(sql`${t.externalReferenceId} IS NOT NULL`),
    check('contacts_identity_ck', sql`${t.phoneNumber} IS NOT NULL OR ${t.providerUserId} IS NOT NULL`),
  ],
);

/**
 * Identity changes the provider reported (`system` messages), one row per provider message
 * id: the applied-once marker that makes a replayed change a no-op, and the previous phone
 * number or user id, so a message from the old number that was sent before the change but
 * delivered after it still finds the contact. Personal data: GDPR erasure deletes the rows.
 */
export const contactIdentityChanges = pgTable(
  'contact_identity_changes',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    providerMessageId: text('provider_message_id').notNull(),
    /** number_changed | user_id_changed | identity_changed */
    change: text('change', { enum: ['number_changed', 'user_id_changed', 'identity_changed'] }).notNull(),
    previousPhoneNumber: text('previous_phone_number'),
    previousUserId: text('previous_user_id'),
    newPhoneNumber: text('new_phone_number'),
    newUserId: text('new_user_id'),
    occurredAt: tstz('occurred_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contact_identity_changes_ws_msg_uq').on(t.workspaceId, t.providerMessageId),
    index('contact_identity_changes_ws_prev_phone_idx').on(t.workspaceId, t.previousPhoneNumber),
    index('contact_identity_changes_ws_prev_user_idx').on(t.workspaceId, t.previousUserId),
    index('contact_identity_changes_ws_contact_idx').on(t.workspaceId, t.contactId),
  ],
);
