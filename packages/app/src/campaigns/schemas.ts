import { z } from 'zod';
import { CAMPAIGN_STATUSES, pageSchema, safeString, templateRefSchema, type PageRules } from '@mos/core';
import { broadcastCounts, broadcastSegmentSchema, createBroadcastInput } from '../broadcasts/schemas';

/** Offset pages, like the other operator lists that answer only their array (`{ campaigns }`). */
export const CAMPAIGN_PAGE = {
  limit: { name: 'limit', default: 50, min: 1, max: 200 },
  offset: { name: 'offset', default: 0, min: 0 },
} as const satisfies PageRules;

// The broadcast's own start-time rule, so whatever a draft stores its broadcast accepts.
const isoTime = createBroadcastInput.shape.scheduledAt.unwrap();
const name = safeString().trim().min(1).max(200);

export const campaignIdInput = z.object({ id: safeString().min(1).max(64) });

export const createCampaignInput = z.strictObject({
  name,
  template: templateRefSchema,
  segment: broadcastSegmentSchema,
  scheduledAt: isoTime.optional().describe('Start at this time once activated (default: at activation).'),
});
export type CreateCampaignInput = z.infer<typeof createCampaignInput>;

/** A draft's edit: the given fields replace the stored ones (`scheduledAt: null` clears it). */
export const updateCampaignInput = z
  .strictObject({
    id: campaignIdInput.shape.id,
    name: name.optional(),
    template: templateRefSchema.optional(),
    segment: broadcastSegmentSchema.optional(),
    scheduledAt: isoTime.nullable().optional(),
  })
  .refine((i) => i.name !== undefined || i.template !== undefined || i.segment !== undefined || i.scheduledAt !== undefined, 'nothing to change');
export type UpdateCampaignInput = z.infer<typeof updateCampaignInput>;

export const listCampaignsInput = pageSchema(CAMPAIGN_PAGE);

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES);

export const campaignView = z.object({
  id: z.string(),
  name: z.string(),
  status: campaignStatusSchema,
  templateName: z.string(),
  template: z.object({ name: z.string(), language: z.string() }),
  segment: broadcastSegmentSchema,
  scheduledAt: z.string().nullable(),
  broadcastId: z.string().nullable(),
  /** Its broadcast is paused (the status stays scheduled or running). */
  paused: z.boolean(),
  /** The broadcast's message counts; null before activation. */
  counts: broadcastCounts.nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignView = z.infer<typeof campaignView>;

export const campaignResult = z.object({ campaign: campaignView });
export const campaignListView = z.object({ campaigns: z.array(campaignView) });

/** The spec's fields, for GET /internal/runtime. */
export const campaignSummary = z.object({ id: z.string(), name: z.string(), status: z.string(), templateName: z.string() });
export type CampaignSummary = z.infer<typeof campaignSummary>;
