import { z } from 'zod';
import { BROADCAST_STATUSES, e164Schema, safeString, templateRefSchema } from '@mos/core';

const isoTime = safeString()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'an ISO 8601 time')
  .pipe(z.iso.datetime({ offset: true }));

export const broadcastSegmentSchema = z
  .strictObject({
    subscriberStatus: z.enum(['subscribed', 'unsubscribed', 'blocked']).optional(),
    contactIds: z
      .array(safeString().regex(/^ctr_[0-9a-z]{26}$/, 'a contact id'))
      .min(1)
      .max(1000)
      .optional(),
    // Bounded so a segment fits the 64 kB body: larger audiences are segments by status or time.
    phoneNumbers: z.array(e164Schema).min(1).max(1000).optional(),
    updatedSince: isoTime.optional(),
  })
  .describe('Contacts matching every given criterion; an empty segment is every contact. Unsubscribed and blocked contacts are always skipped.');

export const createBroadcastInput = z
  .strictObject({
    name: safeString().trim().min(1).max(200).optional(),
    template: templateRefSchema,
    segment: broadcastSegmentSchema,
    scheduledAt: isoTime.optional().describe('Start at this time (default: now).'),
  })
  .meta({ id: 'CreateBroadcastRequest' });
export type CreateBroadcastInput = z.infer<typeof createBroadcastInput>;

export const broadcastStatusSchema = z.enum(BROADCAST_STATUSES);

export const broadcastCounts = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type BroadcastCounts = z.infer<typeof broadcastCounts>;

export const broadcastView = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    status: broadcastStatusSchema,
    template: z.object({ name: z.string(), language: z.string() }),
    scheduledAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    createdAt: z.string(),
    counts: broadcastCounts,
  })
  .meta({ id: 'Broadcast' });
export const broadcastResult = z.object({ broadcast: broadcastView }).meta({ id: 'BroadcastResponse' });
export const createBroadcastResult = z
  .object({ broadcast: z.object({ id: z.string(), status: broadcastStatusSchema }) })
  .meta({ id: 'CreateBroadcastResponse' });
