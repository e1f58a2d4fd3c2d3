export * from './answers';
export * from './auth';
export * from './receive';
export { COMPAT_DUPLICATE_WINDOW_MS } from './store';
