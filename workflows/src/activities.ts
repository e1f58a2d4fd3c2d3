import { createWebhookActivities, type ActivityDeps } from './webhook-processing/activities';
import { createRetentionActivities } from './retention/activities';

/**
 * The activities every worker registers, built from injected dependencies so tests and
 * benchmarks run them against a real database with their own effects, and the worker wires
 * production ones in one place. Template sync's activities need the provider and the vault
 * too: the worker adds `createTemplateActivities` beside these.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createWebhookActivities(deps),
    ...createRetentionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
