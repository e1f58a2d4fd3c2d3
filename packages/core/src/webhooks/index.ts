export * from './signature';
export * from './envelope';
export * from './statuses';
export * from './content-encoding';
export * from './events';
export * from './normalize';
export * from './stored-envelope';
export { opensServiceWindow, serviceWindowOpened } from './service-window';
