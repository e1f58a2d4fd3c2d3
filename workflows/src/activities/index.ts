import { createProcessEvent, createRecordFailure, type ActivityDeps } from './process-event';
import { createRetentionActivities } from './retention';

export type { ActivityDeps, RecordFailureInput } from './process-event';
export * from './effects';
export * from './contact-effects';
export * from './account-effects';
export * from './retention';

/**
 * Activities are built from injected dependencies so tests and benchmarks run them against a
 * real database with their own effects, and the worker wires production ones in one place.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    processEvent: createProcessEvent(deps),
    recordFailure: createRecordFailure(deps),
    ...createRetentionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
