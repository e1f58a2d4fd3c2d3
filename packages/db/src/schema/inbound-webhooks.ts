import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { InboundRunStatus, InboundWebhookOrigin } from '@mos/core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';

/**
 * An external system's signed webhook, mapped to a transactional template send. The URL slug
 * alone resolves the workspace, so it is unique across workspaces. The one-time secret is
 * never stored: `secret_hash` is its SHA-256, which the scheme also uses as the HMAC key, so
 * it is read only by the verifier and never leaves the database in a response.
 */
export const inboundWebhooks = pgTable(
  'inbound_webhooks',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    dryRun: boolean('dry_run').notNull().default(true),
    secretHash: text('secret_hash').notNull(),
    secretPrefix: text('secret_prefix').notNull(),
    /** Target -> expression, as saved (validated by core's mapping engine on every save). */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    /** When set, these override whatever the mapping yields. */
    templateName: text('template_name'),
    templateLocale: text('template_locale'),
    origin: text('origin').$type<InboundWebhookOrigin>().notNull(),
    secretRotatedAt: tstz('secret_rotated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('inbound_webhooks_slug_uq').on(t.slug), index('inbound_webhooks_ws_idx').on(t.workspaceId, t.id)],
);

/**
 * One received request for an enabled configuration. Stores what an operator needs to debug
 * it (redacted headers, the payload's shape, the mapped request without values, errors) and
 * never the payload, the recipient or the template variables. `reserves_key` marks the one
 * run that holds an Idempotency-Key (a dry-run or queued outcome); the partial unique index
 * makes that hold atomic.
 */
export const inboundWebhookRuns = pgTable(
  'inbound_webhook_runs',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    inboundWebhookId: text('inbound_webhook_id')
      .notNull()
      .references(() => inboundWebhooks.id, { onDelete: 'cascade' }),
    status: text('status').$type<InboundRunStatus>().notNull(),
    httpStatus: integer('http_status'),
    dryRun: boolean('dry_run').notNull(),
    idempotencyKey: text('idempotency_key'),
    reservesKey: boolean('reserves_key').notNull().default(false),
    duplicateOfRunId: text('duplicate_of_run_id'),
    signatureScheme: text('signature_scheme'),
    requestId: text('request_id'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    payloadShape: jsonb('payload_shape'),
    mappedRequest: jsonb('mapped_request'),
    errors: jsonb('errors').$type<{ code: string; message: string; target?: string }[]>().notNull().default([]),
    messageId: text('message_id'),
    contactId: text('contact_id'),
    receivedAt: tstz('received_at').notNull(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    uniqueIndex('inbound_webhook_runs_key_uq')
      .on(t.inboundWebhookId, t.idempotencyKey)
      .where(sql`reserves_key`),
    index('inbound_webhook_runs_webhook_idx').on(t.workspaceId, t.inboundWebhookId, t.id),
    index('inbound_webhook_runs_contact_idx')
      .on(t.workspaceId, t.contactId)
      .where(sql`contact_id IS NOT NULL`),
  ],
);
