/**
 * `@mos/workflows/contract`: what a process that starts or inspects workflows needs (workflow
 * type names, workflow ids, input and result types, failure-type enums, search-attribute keys,
 * schedule ids) and nothing else. The API routes and the outbox relay import only this, so an
 * HTTP process never loads activity code. Every contract file imports nothing but
 * `@temporalio/common` (contract.test.ts checks it).
 */
export * from './webhook-processing/contract';
export * from './template-sync/contract';
export * from './retention/contract';
export * from './send-governor/contract';
export * from './broadcasts/contract';
export * from './journeys/contract';
