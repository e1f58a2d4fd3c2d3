export * from './client';
export * from './migrate';
export * as schema from './schema/index';
export * from './schema/index';
export * from './queries/index';
export * from './vault';
