export * from './signature';
export * from './envelope';
export { webhookOrderingKey } from './ordering';
export * from './statuses';
export * from './content-encoding';
export * from './events';
export * from './normalize';
export { opensServiceWindow } from './service-window';
