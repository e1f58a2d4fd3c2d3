import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * Sends started per business number and calendar second: the throughput ledger every worker
 * reserves from before calling the provider, so the limit holds across workers and retries.
 * Old seconds are deleted by the governor as it goes.
 */
export const sendRateWindows = pgTable(
  'send_rate_windows',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    /** Unix seconds. */
    second: bigint('second', { mode: 'number' }).notNull(),
    sends: integer('sends').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.phoneNumberId, t.second], name: 'send_rate_windows_pk' })],
);

/** The last send to each recipient from each business number: the 6-second pair spacing. */
export const recipientSends = pgTable(
  'recipient_sends',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    toPhone: text('to_phone').notNull(),
    lastSentAt: tstz('last_sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.phoneNumberId, t.toPhone], name: 'recipient_sends_pk' })],
);

/**
 * One row per business number with a governor: `active` while its send loop runs, `idle` once
 * it found nothing due. An enqueuer wakes the governor (a Temporal signal) only when it reads
 * `idle` after its own insert committed, so a steady stream costs no signal per message.
 */
export const sendGovernors = pgTable(
  'send_governors',
  {
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    state: text('state').$type<'idle' | 'active'>().notNull().default('idle'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.phoneNumberId], name: 'send_governors_pk' })],
);
