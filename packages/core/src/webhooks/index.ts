export * from './signature';
export * from './envelope';
export * from './statuses';
export * from './content-encoding';
