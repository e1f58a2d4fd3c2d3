import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

/**
 * A tenant. `workspace_id` equals `id` so the "every table carries workspace_id" rule
 * holds here too. `provider_ingress` marks the one workspace the provider webhook paths
 * resolve to (a partial unique index enforces "one").
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    wabaId: text('waba_id'),
    phoneNumberId: text('phone_number_id'),
    providerIngress: boolean('provider_ingress').notNull().default(false),
    dataRetentionDays: integer('data_retention_days'),
    /** The provider raised this account's numbers to 1000 msg/s (else 80). */
    throughputUpgraded: boolean('throughput_upgraded').notNull().default(false),
    /** Per-key /v1 request budget per minute; null keeps the documented default. */
    apiRateLimitPerMinute: integer('api_rate_limit_per_minute'),
    /** The assistant's OpenAI-compatible endpoint and model; the key is the vault's llm-api-key. */
    llmBaseUrl: text('llm_base_url'),
    llmModel: text('llm_model'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('workspaces_slug_uq').on(t.slug),
    uniqueIndex('workspaces_provider_ingress_uq')
      .on(t.providerIngress)
      .where(sql`provider_ingress`),
    index('workspaces_workspace_id_idx').on(t.workspaceId),
  ],
);
