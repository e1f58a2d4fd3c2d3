/** A journey run: one contact walking one journey for one trigger (packages/core/src/journeys). */
export const JOURNEY_RUN_WORKFLOW_TYPE = 'journeyRun';
/** A message from the contact arrived (sent by the worker after the webhook pipeline stored it). */
export const JOURNEY_REPLY_SIGNAL = 'reply';
/** The step the run is on, and what it waits for: `{stepId, waitingFor, replies}`. */
export const JOURNEY_STATE_QUERY = 'state';

/**
 * Names the journey, the trigger event and the contact: Temporal's own dedup (REJECT_DUPLICATE)
 * backs the journey_runs row's unique workflow id, so a trigger posted twice runs once.
 */
export function journeyRunWorkflowId(journeyId: string, triggerRef: string, contactId: string): string {
  return `journey-${journeyId}-${triggerRef}-${contactId}`;
}

/** Ids only: personalization and contact data stay in PostgreSQL. */
export interface JourneyRunInput {
  workspaceId: string;
  journeyRunId: string;
}

export interface JourneyReplySignal {
  /** The inbound message's id (msg_): a signal delivered twice counts once. */
  messageId: string;
}

/** The walkable shape of a step: what the workflow needs to move (no template parameters). */
export interface JourneyPlanStep {
  id: string;
  type: 'send_template' | 'wait' | 'branch_on_reply' | 'branch_on_property' | 'exit';
  next?: string;
  seconds?: number;
  withinSeconds?: number;
  onReply?: string;
  onNoReply?: string;
  onTrue?: string;
  onFalse?: string;
}

export interface JourneyPlan {
  /** `running` when the run may go on; anything else: it already ended (a reset or a duplicate start). */
  status: string;
  steps: JourneyPlanStep[];
}

export interface JourneyStepInput extends JourneyRunInput {
  stepId: string;
}

export type JourneySendOutcome = { outcome: 'queued'; messageId: string } | { outcome: 'refused'; reason: string };

export interface JourneyRunResult {
  status: 'completed' | 'exited' | 'failed' | 'cancelled';
  stepsRun: number;
  lastStep: string | null;
  reason?: string;
}

export interface JourneyState {
  stepId: string | null;
  waitingFor: 'timer' | 'reply' | null;
  replies: number;
}

export enum JourneyFailureType {
  RunNotFound = 'JourneyRunNotFound',
  PersonalizationMissing = 'PersonalizationMissing',
  TemplateNotApproved = 'TemplateNotApproved',
  InvalidDefinition = 'InvalidJourneyDefinition',
}

/** A `schedule` journey's Temporal Schedule: each action starts one tick over the journey's audience. */
export const JOURNEY_SCHEDULE_WORKFLOW_TYPE = 'journeyScheduleTick';

export function journeyScheduleId(journeyId: string): string {
  return `journey-schedule-${journeyId}`;
}

export interface JourneyScheduleTickInput {
  workspaceId: string;
  journeyId: string;
}

export interface JourneyScheduleTickResult {
  /** Runs queued by this tick (contacts already in a run of this tick are not counted again). */
  queued: number;
  pages: number;
}

export interface JourneyAudiencePage {
  queued: number;
  nextCursor: string | null;
}
