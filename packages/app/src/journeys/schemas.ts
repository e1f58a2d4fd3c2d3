import { z } from 'zod';
import {
  JOURNEY_RUN_STATUSES,
  JOURNEY_STATUSES,
  JOURNEY_TRIGGER_TYPES,
  LIMITS,
  MAX_JOURNEY_STEPS,
  journeyStepSchema,
  journeyTriggerSchema,
  pageSchema,
  safeString,
  type JourneyStep,
  type JourneyTrigger,
} from '@mos/core';

const id = safeString().min(1).max(64);
const name = safeString().trim().min(1).max(200);
// The graph rules (targets, cycles, the step bound) are validateJourneySteps'; this bound only
// keeps a hostile body small.
const steps = z.array(journeyStepSchema).max(MAX_JOURNEY_STEPS * 2);

export const journeyIdInput = z.object({ id: id.describe('A journey id (jrn_…).') });

export const createJourneyInput = z.strictObject({ name, trigger: journeyTriggerSchema, steps });
export type CreateJourneyInput = z.infer<typeof createJourneyInput>;

export const updateJourneyInput = z
  .strictObject({ id, name: name.optional(), trigger: journeyTriggerSchema.optional(), steps: steps.optional() })
  .refine((i) => i.name !== undefined || i.trigger !== undefined || i.steps !== undefined, 'give at least one of name, trigger, steps');
export type UpdateJourneyInput = z.infer<typeof updateJourneyInput>;

/**
 * Stored definitions go out as stored: re-validating them on output would turn a rule
 * tightened later into a 500 on every list, so the views only type them.
 */
const storedTrigger = z.custom<JourneyTrigger>((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
const storedStep = z.custom<JourneyStep>((v) => v !== null && typeof v === 'object' && !Array.isArray(v));

export const journeyView = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(JOURNEY_STATUSES),
    triggerType: z.enum(JOURNEY_TRIGGER_TYPES),
    trigger: storedTrigger,
    /** Grows with every edit of the steps or the trigger; each run records the version it walks. */
    version: z.number().int(),
    stepCount: z.number().int(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Journey' });
export type JourneyView = z.infer<typeof journeyView>;

export const journeyDetailView = journeyView.extend({ steps: z.array(storedStep) }).meta({ id: 'JourneyDetail' });
export type JourneyDetailView = z.infer<typeof journeyDetailView>;
export const journeyResult = z.object({ journey: journeyDetailView });
export type JourneyResult = z.infer<typeof journeyResult>;

export const listJourneyRunsInput = z.object({
  id,
  status: z.enum(JOURNEY_RUN_STATUSES).optional(),
  cursor: id.optional(),
  ...pageSchema(LIMITS.journeyRuns).shape,
});

/** A run as operators see it: ids and progress, never the trigger's personalization keys. */
export const journeyRunView = z
  .object({
    id: z.string(),
    journeyId: z.string(),
    journeyVersion: z.number().int(),
    contactId: z.string(),
    status: z.enum(JOURNEY_RUN_STATUSES),
    currentStep: z.string().nullable(),
    triggerType: z.enum(JOURNEY_TRIGGER_TYPES),
    /** The webhook event (evt_) that triggered it, or a schedule tick. */
    triggerRef: z.string(),
    workflowId: z.string(),
    /** The run's workflow in the Temporal UI; null when TEMPORAL_UI_URL is not set. */
    temporalUiUrl: z.string().nullable(),
    failureReason: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'JourneyRun' });
export type JourneyRunView = z.infer<typeof journeyRunView>;
export const journeyRunPage = z.object({ runs: z.array(journeyRunView), nextCursor: z.string().nullable() });

/** Organization, flow and trigger ids as they appear in a legacy path segment. */
const LEGACY_ID = /^[A-Za-z0-9_.~-]{1,128}$/;
const legacyId = safeString()
  .regex(LEGACY_ID, '1-128 of A-Z a-z 0-9 _ . ~ -')
  .refine((s) => s !== '.' && s !== '..', 'not . or ..');

/**
 * The part after /compat/journey-trigger/: segments joined by single slashes, none of them `.`
 * and no `..` anywhere (an HTTP client would resolve them away, so such a path could never be
 * called as stored), no leading or trailing slash.
 */
const legacyPath = safeString()
  .regex(/^[A-Za-z0-9_.~/-]{1,128}$/, '1-128 of A-Z a-z 0-9 _ . ~ - and /')
  .refine((s) => !s.startsWith('/') && !s.endsWith('/') && !s.includes('//'), 'no leading, trailing or doubled /')
  .refine((s) => !s.includes('..') && !s.split('/').includes('.'), 'no .. and no . segment');

export const createCompatMappingInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('rest_trigger'),
    journeyId: id,
    organizationId: legacyId,
    flowId: legacyId,
    /** Absent: the flow's trigger paths that have no mapping of their own. */
    triggerId: legacyId.optional(),
  }),
  z.strictObject({ kind: z.literal('legacy_path'), journeyId: id, legacyPath }),
]);
export type CreateCompatMappingInput = z.infer<typeof createCompatMappingInput>;

export const compatMappingIdInput = z.object({ id: id.describe('A compat mapping id (cmap_…).') });
export const listCompatMappingsInput = z.object({ journeyId: id.optional() });

export const compatMappingView = z
  .object({
    id: z.string(),
    kind: z.enum(['rest_trigger', 'legacy_path']),
    organizationId: z.string().nullable(),
    flowId: z.string().nullable(),
    /** Null on a flow-wide rest_trigger mapping (and on legacy paths). */
    triggerId: z.string().nullable(),
    legacyPath: z.string().nullable(),
    /** The path the mapping answers on the API (a flow-wide mapping also covers the flow's unmapped trigger ids below it). */
    path: z.string(),
    journeyId: z.string(),
    journeyName: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'CompatMapping' });
export type CompatMappingView = z.infer<typeof compatMappingView>;
