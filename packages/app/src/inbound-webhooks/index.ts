export * from './schemas';
export * from './configurations';
export * from './preview';
export * from './receive';
export * from './runs';
