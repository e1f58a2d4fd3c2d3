import { z } from 'zod';
import { INBOUND_RUN_STATUSES, INBOUND_WEBHOOK_ORIGINS, LIMITS, pageSchema, safeString } from '@mos/core';

const id = safeString().min(1).max(64).describe('An inbound webhook configuration id (iwh_…).');
const templateName = safeString()
  .min(1)
  .max(512)
  .regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and underscores');
const templateLocale = safeString()
  .min(2)
  .max(15)
  .regex(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, 'a locale such as en or en_US');
/**
 * Target -> expression. Its rules (targets, expressions, size, prototype-pollution keys) are
 * the mapping engine's (core), checked on every save; here only "an object". The object passes
 * through as sent: a record schema would copy it and silently drop a `__proto__` key that
 * the engine must see to refuse.
 */
const mapping = z
  .custom<Record<string, string>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), 'the mapping must be an object of target -> expression')
  .describe('Target -> expression (docs/inbound-webhooks.md).');

export const inboundWebhookIdInput = z.object({ id });

export const createInboundWebhookInput = z.strictObject({
  name: safeString().trim().min(1).max(100),
  templateName,
  templateLocale,
  mapping,
});
export type CreateInboundWebhookInput = z.infer<typeof createInboundWebhookInput>;

/** The CLI (platform admins) may leave the template to the mapping. */
export const adminCreateInboundWebhookInput = createInboundWebhookInput.extend({
  templateName: templateName.optional(),
  templateLocale: templateLocale.optional(),
});
export type AdminCreateInboundWebhookInput = z.infer<typeof adminCreateInboundWebhookInput>;

export const updateInboundWebhookInput = z.strictObject({
  id,
  name: safeString().trim().min(1).max(100).optional(),
  templateName: templateName.optional(),
  templateLocale: templateLocale.optional(),
  mapping: mapping.optional(),
});
export type UpdateInboundWebhookInput = z.infer<typeof updateInboundWebhookInput>;

export const promoteInboundWebhookInput = z.strictObject({
  id,
  live: z.boolean().default(false).describe('Also leave dry-run: requests then send the template.'),
});

export const previewInboundWebhookInput = z.strictObject({
  /** A saved configuration, or an unsaved mapping with its template. */
  id: id.optional(),
  mapping: mapping.optional(),
  templateName: templateName.optional(),
  templateLocale: templateLocale.optional(),
  samplePayload: z.unknown(),
});
export type PreviewInboundWebhookInput = z.infer<typeof previewInboundWebhookInput>;

export const inboundWebhookView = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    /** Where external systems POST: the API app's path (prefix it with the API's base URL). */
    path: z.string(),
    enabled: z.boolean(),
    dryRun: z.boolean(),
    templateName: z.string().nullable(),
    templateLocale: z.string().nullable(),
    mapping: z.record(z.string(), z.string()),
    secretPrefix: z.string(),
    origin: z.enum(INBOUND_WEBHOOK_ORIGINS),
    secretRotatedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'InboundWebhook' });
export type InboundWebhookView = z.infer<typeof inboundWebhookView>;

/** Create and rotate only: the secret, shown this once. */
export const inboundWebhookWithSecret = z.object({
  inboundWebhook: inboundWebhookView,
  secret: z.string(),
  /** The same key for a Standard Webhooks library (webhook-id/-timestamp/-signature headers). */
  standardWebhooksSecret: z.string(),
});

export const mappingIssueView = z.object({ code: z.string(), target: z.string().optional(), message: z.string() });

export const inboundRunView = z.object({
  id: z.string(),
  inboundWebhookId: z.string(),
  status: z.enum(INBOUND_RUN_STATUSES),
  httpStatus: z.number().int().nullable(),
  dryRun: z.boolean(),
  idempotencyKey: z.string().nullable(),
  duplicateOfRunId: z.string().nullable(),
  signatureScheme: z.string().nullable(),
  requestId: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  payloadShape: z.unknown(),
  mappedRequest: z.unknown(),
  errors: z.array(mappingIssueView),
  contactId: z.string().nullable(),
  /** The message a live run queued, as it stands now (status moves as the provider reports). */
  message: z
    .object({
      id: z.string(),
      status: z.string(),
      statusHistory: z.array(z.object({ status: z.string(), at: z.string(), code: z.number().int().optional() })),
      error: z.unknown().nullable(),
    })
    .nullable(),
  receivedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type InboundRunView = z.infer<typeof inboundRunView>;

export const listInboundRunsInput = z.object({
  id,
  status: z.enum(INBOUND_RUN_STATUSES).optional(),
  cursor: safeString().max(64).optional(),
  ...pageSchema(LIMITS.inboundWebhookRuns).shape,
});
