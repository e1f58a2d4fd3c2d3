import { fileURLToPath } from 'node:url';

export * from './shared';
export * from './activities/index';

/** Absolute path of the workflow module, for `Worker.create({workflowsPath})` and bundling. */
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));
export * from './template-sync-shared';
export * from './template-sync-schedule';
export { createTemplateActivities, createTemplateEffects, templateActivitiesFromEnv, type TemplateActivities, type TemplateActivityDeps } from './activities/templates';
export * from './retention-shared';
export * from './retention-schedule';
