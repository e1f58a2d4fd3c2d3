import type { MessageStatus, NormalizedEvent } from '@mos/core';
import type { WebhookOutcome } from './contract';

/** A message status a webhook carried, with the provider's first error code (failed statuses). */
export interface ObservedStatus {
  status: MessageStatus;
  errorCode: number | null;
}

/**
 * What the worker counts about webhook processing (its /metrics). Every call comes after the
 * transaction it describes committed, so a rolled-back or retried attempt is never counted.
 * Optional: tests and benchmarks run the activities without one.
 */
export interface WebhookObserver {
  /** One webhook of a batch call, by what the call did with it. */
  batchOutcome(outcome: WebhookOutcome['outcome']): void;
  /** A webhook applied now (not already before): when the ingress stored it, and the statuses it carried. */
  processed(webhook: { receivedAt: Date; statuses: ObservedStatus[] }): void;
  /** A webhook given up for good (marked failed). */
  failed(): void;
}

export function statusesOf(families: readonly NormalizedEvent[]): ObservedStatus[] {
  const out: ObservedStatus[] = [];
  for (const f of families) if (f.family === 'message.status') out.push({ status: f.status, errorCode: f.errors[0]?.code ?? null });
  return out;
}
