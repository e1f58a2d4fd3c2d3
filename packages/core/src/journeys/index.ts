export * from './definition';
export * from './personalize';
export * from './run';
export * from './campaign';
