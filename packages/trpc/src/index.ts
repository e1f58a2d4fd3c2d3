export * from './trpc';
export * from './router';
