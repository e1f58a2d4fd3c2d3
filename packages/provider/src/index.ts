export * from './errors';
export * from './types';
export * from './client';
export * from './from-env';
