export * from './schemas';
export * from './broadcasts';
