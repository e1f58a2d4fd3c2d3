import type { SendOutcome } from '@mos/core';

/** How the provider answered one send: accepted, a SendOutcome kind, or a throw that was no provider answer. */
export type SendAnswer = 'accepted' | SendOutcome['kind'] | 'unexpected_error';

/**
 * What the worker counts about sends (its /metrics): each provider answer as the governor
 * classified it, with the provider's error code when it gave one. Optional: tests and
 * benchmarks run the activities without one.
 */
export interface SendObserver {
  answered(answer: SendAnswer, errorCode: number | null): void;
}
