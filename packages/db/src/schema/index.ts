export * from './workspaces';
export * from './members';
export * from './sessions';
export * from './api-keys';
export * from './secrets';
export * from './audit-logs';
