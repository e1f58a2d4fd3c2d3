import { createProcessEvent, createRecordFailure, type ActivityDeps } from './process-event';

export type { ActivityDeps, RecordFailureInput } from './process-event';
export * from './effects';
export * from './contact-effects';

/**
 * Activities are built from injected dependencies so tests and benchmarks run them against a
 * real database with their own effects, and the worker wires production ones in one place.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    processEvent: createProcessEvent(deps),
    recordFailure: createRecordFailure(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
