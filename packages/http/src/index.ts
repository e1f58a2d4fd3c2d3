export * from './errors';
export * from './body';
export * from './request-id';
export * from './session';
export * from './auth-routes';
export * from './path-param';
export * from './serve';
export * from './per-second-limit';
