export * from './env';
export * from './master-key';
export * from './crypto';
export * from './logger';
export * from './build-info';
export * from './vault';
