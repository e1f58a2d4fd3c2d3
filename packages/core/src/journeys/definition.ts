import { z } from 'zod';
import { safeString } from '../text';
import { templateRefSchema } from '../sending/outbound';
import { validateEventName } from '../compat/payloads';

/**
 * A journey: a trigger and the steps each triggered contact walks, one Temporal run per
 * (journey, trigger event, contact). Steps are data, validated here once, so the workflow only
 * walks a definition that is known to end.
 */
export const JOURNEY_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type JourneyStatus = (typeof JOURNEY_STATUSES)[number];

export const JOURNEY_TRIGGER_TYPES = ['api', 'partner_event', 'inbound_message', 'schedule'] as const;
export type JourneyTriggerType = (typeof JOURNEY_TRIGGER_TYPES)[number];

/** Operator actions and the statuses they lead from. Archived is final. */
export const JOURNEY_TRANSITIONS: Record<'activate' | 'pause' | 'archive', Partial<Record<JourneyStatus, JourneyStatus>>> = {
  activate: { draft: 'active', paused: 'active' },
  pause: { active: 'paused' },
  archive: { draft: 'archived', active: 'archived', paused: 'archived' },
};

export const MAX_JOURNEY_STEPS = 50;
/** Longest single wait: 90 days (Temporal timers are durable; this bounds a mistyped value). */
export const MAX_WAIT_SECONDS = 90 * 24 * 3600;

const stepId = safeString()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and -');

/**
 * A template parameter: literal text with `{{key}}` placeholders filled from the trigger's
 * personalization keys, `{{contact.name}}` / `{{contact.<property>}}` from the contact, and
 * `{{key|fallback}}` for a value that may be absent.
 */
const parameterText = safeString().min(1).max(1024);

const sendTemplateStep = z.strictObject({
  id: stepId,
  type: z.literal('send_template'),
  // The send path's own template reference; parameters come from the step's texts instead.
  template: templateRefSchema.pick({ name: true, language: true }),
  parameters: z.strictObject({ body: z.array(parameterText).max(20).optional() }).optional(),
  next: stepId.optional(),
});

const waitStep = z.strictObject({
  id: stepId,
  type: z.literal('wait'),
  seconds: z.number().int().min(1).max(MAX_WAIT_SECONDS),
  next: stepId.optional(),
});

/** Waits up to `withinSeconds` for a message from the contact (a reply since the step began). */
const branchOnReplyStep = z.strictObject({
  id: stepId,
  type: z.literal('branch_on_reply'),
  withinSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS),
  onReply: stepId,
  onNoReply: stepId,
});

export const PROPERTY_OPERATORS = ['equals', 'not_equals', 'exists', 'not_exists', 'contains'] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/** Branches on a contact field (`name`, `email`, `locale`, `source_type`, `subscriber_status`) or one of its `person_properties`. */
const branchOnPropertyStep = z
  .strictObject({
    id: stepId,
    type: z.literal('branch_on_property'),
    property: safeString()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _, . and -'),
    operator: z.enum(PROPERTY_OPERATORS),
    value: safeString().max(1024).optional(),
    onTrue: stepId,
    onFalse: stepId,
  })
  .refine((s) => s.operator === 'exists' || s.operator === 'not_exists' || s.value !== undefined, {
    message: 'value is required for equals, not_equals and contains',
    path: ['value'],
  });

const exitStep = z.strictObject({ id: stepId, type: z.literal('exit') });

export const journeyStepSchema = z.union([sendTemplateStep, waitStep, branchOnReplyStep, branchOnPropertyStep, exitStep]);
export type JourneyStep = z.infer<typeof journeyStepSchema>;
export type SendTemplateStep = z.infer<typeof sendTemplateStep>;
export type BranchOnPropertyStep = z.infer<typeof branchOnPropertyStep>;

/**
 * What starts a journey. `partner_event`: a partner event whose event_name equals `eventName`.
 * `inbound_message`: any message from a contact, or only one whose text contains `keyword`
 * (case-insensitive). `schedule`: a cron spec (UTC) over a segment of contacts. `api`: the
 * journey-trigger paths through a stored mapping.
 */
export const journeyTriggerSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('api') }),
  z.strictObject({
    type: z.literal('partner_event'),
    // The partner path's own rule, so a journey only waits for a name a partner can send.
    eventName: safeString()
      .min(1)
      .max(128)
      .refine((v) => validateEventName(v).ok, 'no whitespace of any kind'),
  }),
  z.strictObject({ type: z.literal('inbound_message'), keyword: safeString().trim().min(1).max(64).optional() }),
  z.strictObject({
    type: z.literal('schedule'),
    cron: safeString()
      .max(128)
      .regex(/^(\S+\s+){4}\S+$/, 'a five-field cron expression (UTC)'),
    segment: z.strictObject({ subscriberStatus: z.literal('subscribed').optional(), updatedSince: safeString().max(40).optional() }).optional(),
  }),
]);
export type JourneyTrigger = z.infer<typeof journeyTriggerSchema>;

export interface JourneyDefinitionIssue {
  path: string;
  message: string;
}

/** Where a step goes next: its explicit targets, or (linear steps) the step after it. */
export function stepTargets(steps: readonly JourneyStep[], index: number): string[] {
  const s = steps[index]!;
  switch (s.type) {
    case 'exit':
      return [];
    case 'branch_on_reply':
      return [s.onReply, s.onNoReply];
    case 'branch_on_property':
      return [s.onTrue, s.onFalse];
    default: {
      if (s.next) return [s.next];
      const after = steps[index + 1];
      return after ? [after.id] : [];
    }
  }
}

/**
 * Ids unique, every target defined, no cycle (so every run ends), at least one step. Returns
 * every issue found; an empty list means the steps can be walked.
 */
export function validateJourneySteps(steps: readonly JourneyStep[]): JourneyDefinitionIssue[] {
  const issues: JourneyDefinitionIssue[] = [];
  if (steps.length === 0) return [{ path: 'steps', message: 'a journey needs at least one step' }];
  if (steps.length > MAX_JOURNEY_STEPS) issues.push({ path: 'steps', message: `at most ${MAX_JOURNEY_STEPS} steps` });
  const index = new Map<string, number>();
  steps.forEach((s, i) => {
    if (index.has(s.id)) issues.push({ path: `steps.${i}.id`, message: `duplicate step id ${s.id}` });
    else index.set(s.id, i);
  });
  steps.forEach((_, i) => {
    for (const t of stepTargets(steps, i)) if (!index.has(t)) issues.push({ path: `steps.${i}`, message: `unknown step ${t}` });
  });
  if (issues.length > 0) return issues;
  // Depth-first search for a back edge: a cycle could keep a run alive (and sending) forever.
  const state = new Map<number, 'open' | 'done'>();
  const visit = (i: number): boolean => {
    state.set(i, 'open');
    for (const t of stepTargets(steps, i)) {
      const j = index.get(t)!;
      if (state.get(j) === 'open') return true;
      if (!state.has(j) && visit(j)) return true;
    }
    state.set(i, 'done');
    return false;
  };
  if (visit(0)) issues.push({ path: 'steps', message: 'the steps form a cycle: every path must end' });
  return issues;
}
