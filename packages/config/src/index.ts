export * from './env';
export * from './temporal';
export * from './master-key';
export * from './logger';
export * from './build-info';
