import { z } from 'zod';
import {
  componentsSchema,
  deriveVariables,
  derivePreview,
  PARAMETER_FORMATS,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  type TemplateComponent,
  safeString,
  upperCased,
  upperEnum,
} from '@mos/core';
import type { SyncedTemplateRow, TemplateRow } from '@mos/db';

/** The control-plane Template (spec: "Template (control-plane, /api/templates)"). */
export const templateView = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  status: z.enum(TEMPLATE_STATUSES),
  parameterFormat: z.enum(PARAMETER_FORMATS),
  components: z.array(z.record(z.string(), z.unknown())),
  /** The provider's `message_send_ttl_seconds`; null when unset (provider default). */
  messageSendTtlSeconds: z.number().int().nullable(),
  variables: z.array(z.string()),
  preview: z.string(),
  providerTemplateId: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateView = z.infer<typeof templateView>;

export function toTemplateView(row: TemplateRow): TemplateView {
  const components = row.components as TemplateComponent[];
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    parameterFormat: row.parameterFormat,
    components: components as Record<string, unknown>[],
    messageSendTtlSeconds: row.messageSendTtlSeconds,
    variables: deriveVariables(components, row.category),
    preview: derivePreview(components, row.category),
    providerTemplateId: row.providerTemplateId,
    rejectionReason: row.rejectionReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The synced template (spec: "Synced template (returned by GET /internal/templates)"). */
export const syncedTemplateView = z.object({
  id: z.string(),
  providerTemplateId: z.string(),
  name: z.string(),
  status: z.string(),
  category: z.string(),
  language: z.string(),
  parameterFormat: z.string().nullable(),
  components: z.array(z.unknown()),
  rejectionReason: z.string().nullable(),
  /** What the last status webhook said: event, reason code, rejection/pause/disable text (docs/templates.md). */
  statusDetail: z
    .object({
      event: z.string(),
      reason: z.string().nullable(),
      title: z.string().nullable(),
      description: z.string().nullable(),
      recommendation: z.string().nullable(),
      disableDate: z.string().nullable(),
    })
    .nullable(),
  statusChangedAt: z.string().nullable(),
  /** GREEN | YELLOW | RED | UNKNOWN, once the provider has rated it. */
  qualityScore: z.string().nullable(),
  previousQualityScore: z.string().nullable(),
  qualityChangedAt: z.string().nullable(),
  previousCategory: z.string().nullable(),
  /** An impending re-categorization announced by the provider: the category it will get, and when. */
  pendingCategoryChange: z.object({ category: z.string(), effectiveAt: z.string().nullable() }).nullable(),
  syncedAt: z.string(),
});
export type SyncedTemplateView = z.infer<typeof syncedTemplateView>;

export const toSyncedTemplateView = (r: SyncedTemplateRow): SyncedTemplateView => ({
  id: r.id,
  providerTemplateId: r.providerTemplateId,
  name: r.name,
  status: r.status,
  category: r.category,
  language: r.language,
  parameterFormat: r.parameterFormat,
  components: r.components,
  rejectionReason: r.rejectionReason,
  statusDetail: r.statusDetail ?? null,
  statusChangedAt: r.statusChangedAt?.toISOString() ?? null,
  qualityScore: r.qualityScore,
  previousQualityScore: r.previousQualityScore,
  qualityChangedAt: r.qualityChangedAt?.toISOString() ?? null,
  previousCategory: r.previousCategory,
  pendingCategoryChange: r.pendingCategory ? { category: r.pendingCategory, effectiveAt: r.pendingCategoryAt?.toISOString() ?? null } : null,
  syncedAt: r.syncedAt.toISOString(),
});

// Request shapes. Drafts may be incomplete: these check shape only; the validator runs at
// submit and on demand (templates.validate). Every object is strict, like the component
// schemas: an unknown field is a 400 naming it, never dropped. Enums take the provider's
// lower-case spellings too ("marketing", "named").
const name = safeString().trim().min(1, 'name is required').max(512);
const language = safeString().trim().min(1).max(16);
const category = upperEnum(TEMPLATE_CATEGORIES);
const parameterFormat = upperEnum(PARAMETER_FORMATS);
/** Range rules are the validator's (they depend on the category); null clears it. */
const messageSendTtlSeconds = z.number().int().min(-1).max(100_000_000).nullable();

export const createTemplateInput = z.strictObject({
  name,
  language: language.default('en_US'),
  category: category.default('UTILITY'),
  parameterFormat: parameterFormat.default('POSITIONAL'),
  components: componentsSchema.default([]),
  messageSendTtlSeconds: messageSendTtlSeconds.optional(),
});
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

export const templateId = z.strictObject({ id: safeString().min(1).max(64) });

export const updateTemplateInput = templateId.extend({
  name: name.optional(),
  language: language.optional(),
  category: category.optional(),
  parameterFormat: parameterFormat.optional(),
  components: componentsSchema.optional(),
  messageSendTtlSeconds: messageSendTtlSeconds.optional(),
});
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

/** Live validation of what the editor holds right now; loose strings so every rule reports. */
export const validateTemplateInput = z.strictObject({
  name: safeString().max(1024).default(''),
  language: safeString().max(64).default('en_US'),
  category: z.preprocess(upperCased, safeString().max(64)).default('UTILITY'),
  parameterFormat: z.preprocess(upperCased, safeString().max(64)).default('POSITIONAL'),
  components: componentsSchema.default([]),
  messageSendTtlSeconds: messageSendTtlSeconds.optional(),
});

export const templateIssueView = z.object({ path: z.array(z.union([z.string(), z.number()])), code: z.string(), message: z.string() });

export const validateTemplateOutput = z.object({
  valid: z.boolean(),
  /** The name as it will be stored (normalized). */
  name: z.string(),
  issues: z.array(templateIssueView),
  variables: z.array(z.string()),
  preview: z.string(),
});

export const submitTemplateOutput = z.object({
  template: z.object({ id: z.string(), status: z.literal('pending_approval'), providerTemplateId: z.string() }),
});

export const starterPackOutput = z.object({
  total: z.number().int(),
  submitted: z.number().int(),
  errored: z.number().int(),
  results: z.array(
    z.object({
      name: z.string(),
      language: z.string(),
      category: z.string(),
      status: z.enum(['submitted', 'error', 'skipped']),
      providerTemplateId: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
});
export type StarterPackResult = z.infer<typeof starterPackOutput>;
