/**
 * Counters of the provider webhook ingress, in memory on purpose: a 413 or 429 must cost
 * nothing (no database write), and each API replica reports its own figures since it
 * started. Two views: the process-wide figures (platform metrics, GET /metrics) and, per
 * workspace, only what is attributable to that workspace (its /internal/runtime), so no
 * tenant sees another's traffic.
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
  /** 503 provider_ingress_not_configured: the path leads to no workspace. */
  notConfigured: number;
}

export type IngressCounter = keyof IngressCounters;

/**
 * What one workspace sees: requests once they were resolved to it. Rate-limited and
 * unresolvable requests are counted before any workspace is known: platform figures only.
 */
export type WorkspaceIngressCounters = Omit<IngressCounters, 'rateLimited' | 'notConfigured'>;
export type WorkspaceIngressCounter = keyof WorkspaceIngressCounters;

export interface IngressMetrics {
  /** A process-wide count (nothing attributable to a workspace yet). */
  inc(counter: IngressCounter): void;
  /** A count attributed to a workspace; also counted process-wide, except `received` (counted once on arrival). */
  incFor(workspaceId: string, counter: WorkspaceIngressCounter): void;
  snapshot(): IngressCounters & { since: string };
  workspaceSnapshot(workspaceId: string): WorkspaceIngressCounters & { since: string };
}

const zeroWorkspace = (): WorkspaceIngressCounters => ({ received: 0, accepted: 0, duplicates: 0, rejected: 0, tooLarge: 0, unavailable: 0 });

export function createIngressMetrics(now: () => Date = () => new Date()): IngressMetrics {
  const since = now().toISOString();
  const c: IngressCounters = { ...zeroWorkspace(), rateLimited: 0, notConfigured: 0 };
  const perWorkspace = new Map<string, WorkspaceIngressCounters>();
  return {
    inc(counter) {
      c[counter]++;
    },
    incFor(workspaceId, counter) {
      if (counter !== 'received') c[counter]++;
      let w = perWorkspace.get(workspaceId);
      if (!w) perWorkspace.set(workspaceId, (w = zeroWorkspace()));
      w[counter]++;
    },
    snapshot: () => ({ ...c, since }),
    workspaceSnapshot: (workspaceId) => ({ ...(perWorkspace.get(workspaceId) ?? zeroWorkspace()), since }),
  };
}
