import { fileURLToPath } from 'node:url';

/**
 * `@mos/workflows`: everything the worker process wires (activities, effects, schedules and the
 * path of the workflow bundle), plus the contract. HTTP processes import `@mos/workflows/contract`.
 */
export * from './contract';
export * from './activities';
export * from './schedule';

/** Absolute path of the workflow bundle's entry, for `Worker.create({workflowsPath})` and bundling. */
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows.ts', import.meta.url));

export { createWebhookActivities, type ActivityDeps, type RecordFailureInput, type WebhookActivities } from './webhook-processing/activities';
export type { ObservedStatus, WebhookObserver } from './webhook-processing/observer';
export type { SendAnswer, SendObserver } from './send-governor/observer';
export * from './webhook-processing/effects/index';
export { createTemplateActivities, type TemplateActivities, type TemplateActivityDeps } from './template-sync/activities';
export { ensureTemplateSyncSchedule } from './template-sync/schedule';
export * from './retention/activities';
export * from './retention/schedule';
export * from './search-attributes';
export { createSendingActivities, type SendingActivityDeps } from './sending-activities';
export { MAX_SEND_ATTEMPTS } from './send-governor/activities';
export { createJourneyActivities, type JourneyActivities, type JourneyActivityDeps, type JourneySendRequest } from './journeys/activities';
export { queueJourneyRun } from './journeys/start-run';
export { createJourneyScheduleActivities, type JourneyScheduleActivities } from './journeys/schedule-activities';
