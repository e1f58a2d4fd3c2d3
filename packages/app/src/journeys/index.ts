export * from './schemas';
export * from './journeys';
export * from './mappings';
export * from './schedule-sync';
