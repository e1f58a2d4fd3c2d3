export * from './outbound';
export * from './status';
export * from './service-window';
export * from './provider-outcome';
export * from './broadcast';
