export * from './schemas';
export * from './send';
export * from './views';
export * from './governor';
export * from './journey-send';
