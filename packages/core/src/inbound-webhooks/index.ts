// run-status.ts is exported from the package index on its own line.
export * from './signature';
export * from './mapping';
export { MAX_EXPRESSION_LENGTH, MAX_PATH_SEGMENTS } from './mapping-expressions';
export * from './payload-shape';
export * from './redact-headers';
