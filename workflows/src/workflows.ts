/**
 * The workflow bundle's entry (`WORKFLOWS_PATH`, `@mos/workflows/workflows`): every workflow
 * the worker registers. Only workflow-safe code is reachable from here: the workflows, their
 * contracts, and activities as types.
 */
export { processWebhookBatch, processWebhookEvent } from './webhook-processing/workflow';
export { templateSync, templateSyncAll } from './template-sync/workflow';
export { retentionPurge, retentionSweep } from './retention/workflow';
export { sendGovernor } from './send-governor/workflow';
export { runBroadcast } from './broadcasts/workflow';
export { journeyRun } from './journeys/workflow';
export { journeyScheduleTick } from './journeys/schedule-workflow';
