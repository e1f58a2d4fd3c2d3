export { processWebhookEvent } from './process-webhook-event';
export { templateSync, templateSyncAll } from './template-sync';
export { retentionPurge, retentionSweep } from './retention-purge';
