export * from './errors';
export * from './body';
export * from './request-id';
export * from './session';
export * from './auth-routes';
export * from './procedures';
export * from './serve';
