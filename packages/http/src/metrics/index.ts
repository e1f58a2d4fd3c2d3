export * from './registry';
export * from './scrape-access';
export * from './metrics-handler';
export * from './request-duration';
export * from './metrics-server';
