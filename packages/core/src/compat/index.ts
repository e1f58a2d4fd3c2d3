export * from './payloads';
export * from './events';
