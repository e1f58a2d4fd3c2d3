/** The family effects the webhook pipeline applies: the seam, and each aggregate's part of it. */
export * from './family-effects';
export * from './contacts';
export * from './account';
export { createTemplateEffects } from './templates';
export * from './compat';
export * from './journey-replies';
