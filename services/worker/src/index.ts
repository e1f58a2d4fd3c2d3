export { startWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions, type WorkerTuning } from './worker';
export { createOutboxRelay, OUTBOX_CHANNEL, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { defaultEffects } from './effects';
export { temporalBatchDispatcher, batchInput, type BatchDispatcher } from './batch-dispatcher';
