/**
 * Per-process counters of the provider webhook ingress, shown in the runtime snapshot.
 * In memory on purpose: a 413 or 429 must cost nothing (no database write), and each API
 * replica reports its own figures since it started.
 */
export interface IngressCounters {
  /** Requests that reached a POST handler (including the ones refused below). */
  received: number;
  /** Stored with a valid signature and a new outbox job. */
  accepted: number;
  /** Stored with a valid signature, repeating a delivery id: no new job. */
  duplicates: number;
  /** Stored with an invalid signature (or no secret configured): a rejection row. */
  rejected: number;
  /** 413: body over WEBHOOK_BODY_LIMIT_BYTES; not stored. */
  tooLarge: number;
  /** 429: over WEBHOOK_RATE_LIMIT_PER_SECOND for the source; not stored. */
  rateLimited: number;
  /** 503 service_unavailable: the store failed, nothing committed; the provider retries. */
  unavailable: number;
  /** 503 provider_ingress_not_configured: no workspace marked for provider ingress. */
  notConfigured: number;
}

export type IngressCounter = keyof IngressCounters;

export interface IngressMetrics {
  inc(counter: IngressCounter): void;
  snapshot(): IngressCounters & { since: string };
}

export function createIngressMetrics(now: () => Date = () => new Date()): IngressMetrics {
  const since = now().toISOString();
  const c: IngressCounters = { received: 0, accepted: 0, duplicates: 0, rejected: 0, tooLarge: 0, rateLimited: 0, unavailable: 0, notConfigured: 0 };
  return {
    inc(counter) {
      c[counter]++;
    },
    snapshot: () => ({ ...c, since }),
  };
}
