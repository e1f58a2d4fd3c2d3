import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * A person we message, unique per workspace by phone number (E.164 with +). `name` is the
 * operator's name for them (seeded from the provider profile on first contact);
 * `profile_name` always follows the latest provider profile. After a GDPR erasure the phone
 * number is an `anon_` token and `anonymized_at` is set.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    name: text('name'),
    profileName: text('profile_name'),
    email: text('email'),
    externalReferenceId: text('external_reference_id'),
    /** subscribed | unsubscribed | blocked */
    subscriberStatus: text('subscriber_status', { enum: ['subscribed', 'unsubscribed', 'blocked'] }).notNull().default('subscribed'),
    /**
     * When the status was last decided (message time for keywords, clock time for operators).
     * A keyword older than this is ignored, so replays and out-of-order deliveries of an old
     * STOP never undo a later START.
     */
    subscriberStatusAt: tstz('subscriber_status_at'),
    locale: text('locale'),
    lastInboundAt: tstz('last_inbound_at'),
    anonymizedAt: tstz('anonymized_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('contacts_ws_phone_uq').on(t.workspaceId, t.phoneNumber),
    index('contacts_ws_created_idx').on(t.workspaceId, t.createdAt, t.id),
  ],
);
