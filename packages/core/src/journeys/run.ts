/**
 * A journey run: one contact walking one journey for one trigger event. `pending` is stored
 * by the pipeline in the trigger's transaction; the worker's starter starts its workflow and
 * marks it `running`; the workflow ends it.
 */
export const JOURNEY_RUN_STATUSES = ['pending', 'running', 'completed', 'exited', 'failed', 'cancelled'] as const;
export type JourneyRunStatus = (typeof JOURNEY_RUN_STATUSES)[number];

/** Outbox job types the journey machinery writes (the worker's job starter handles them). */
export const START_JOURNEY_RUN = 'start_journey_run';
export const SIGNAL_JOURNEY_REPLY = 'signal_journey_reply';

/** The idempotency key of a journey step's message: a retried activity or a replayed run sends once. */
export const journeyMessageKey = (journeyRunId: string, stepId: string): string => `journey:${journeyRunId}:${stepId}`;
