export * from './signature';
export * from './envelope';
export * from './statuses';
