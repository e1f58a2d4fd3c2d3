export * from './workspaces';
export * from './members';
export * from './sessions';
export * from './api-keys';
export * from './vault-secrets';
export * from './audit-logs';
export * from './worker-heartbeats';
export * from './queue';
