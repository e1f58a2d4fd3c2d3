/**
 * Counters a benchmark reads to judge the sender, computed from what was accepted rather than
 * from the simulator's own enforcement: `secondsOverLimit` and `pairViolations` are 0 when the
 * gates work, and a bug in a gate would show here instead of being hidden by it.
 */

const SECONDS_KEPT = 600;
/** Callback data remembered per phone number for duplicate detection; the oldest are forgotten past this. */
const CALLBACKS_KEPT = 1_000_000;

export interface SecondStats {
  second: number;
  accepted: number;
  rejected: number;
}

export interface PhoneNumberStats {
  phoneNumberId: string;
  throughputPerSecond: number;
  accepted: number;
  rejected: number;
  rejectionsByCode: Record<string, number>;
  maxPerSecond: number;
  secondsOverLimit: number;
  perSecond: SecondStats[];
  pairViolations: number;
  duplicates: number;
  timeouts: { beforeAccept: number; afterAccept: number };
  firstAcceptedAt: string | null;
  lastAcceptedAt: string | null;
}

class NumberCounters {
  accepted = 0;
  rejected = 0;
  rejectionsByCode: Record<string, number> = {};
  maxPerSecond = 0;
  secondsOverLimit = 0;
  perSecond: SecondStats[] = [];
  pairViolations = 0;
  duplicates = 0;
  timeouts = { beforeAccept: 0, afterAccept: 0 };
  firstAcceptedAt: number | null = null;
  lastAcceptedAt: number | null = null;
  readonly lastByPair = new Map<string, number>();
  readonly callbacks = new Set<string>();

  bucket(second: number): SecondStats {
    const last = this.perSecond.at(-1);
    if (last?.second === second) return last;
    if (!last || second > last.second) {
      const b = { second, accepted: 0, rejected: 0 };
      this.perSecond.push(b);
      if (this.perSecond.length > SECONDS_KEPT) this.perSecond.shift();
      return b;
    }
    // The injected clock went back: find or insert the older second (rare, tests only).
    let i = this.perSecond.length - 1;
    while (i >= 0 && this.perSecond[i]!.second > second) i--;
    if (i >= 0 && this.perSecond[i]!.second === second) return this.perSecond[i]!;
    const b = { second, accepted: 0, rejected: 0 };
    this.perSecond.splice(i + 1, 0, b);
    return b;
  }
}

export class SimStats {
  private readonly numbers = new Map<string, NumberCounters>();

  private of(phoneNumberId: string): NumberCounters {
    let n = this.numbers.get(phoneNumberId);
    if (!n) this.numbers.set(phoneNumberId, (n = new NumberCounters()));
    return n;
  }

  accepted(a: { phoneNumberId: string; waId: string; callbackData?: string; nowMs: number; limit: number; pairSpacingMs: number }): void {
    const n = this.of(a.phoneNumberId);
    n.accepted++;
    n.firstAcceptedAt ??= a.nowMs;
    n.lastAcceptedAt = a.nowMs;
    const b = n.bucket(Math.floor(a.nowMs / 1000));
    b.accepted++;
    if (b.accepted > n.maxPerSecond) n.maxPerSecond = b.accepted;
    if (b.accepted === a.limit + 1) n.secondsOverLimit++;
    const prev = n.lastByPair.get(a.waId);
    if (prev !== undefined && a.nowMs >= prev && a.nowMs - prev < a.pairSpacingMs) n.pairViolations++;
    n.lastByPair.set(a.waId, a.nowMs);
    if (a.callbackData !== undefined) {
      if (n.callbacks.has(a.callbackData)) n.duplicates++;
      else {
        n.callbacks.add(a.callbackData);
        if (n.callbacks.size > CALLBACKS_KEPT) n.callbacks.delete(n.callbacks.values().next().value!);
      }
    }
  }

  /** A send answered with a Graph error (its code) instead of being accepted. */
  rejected(phoneNumberId: string, code: number, nowMs: number): void {
    const n = this.of(phoneNumberId);
    n.rejected++;
    n.rejectionsByCode[code] = (n.rejectionsByCode[code] ?? 0) + 1;
    n.bucket(Math.floor(nowMs / 1000)).rejected++;
  }

  timedOut(phoneNumberId: string, afterAccept: boolean): void {
    const t = this.of(phoneNumberId).timeouts;
    if (afterAccept) t.afterAccept++;
    else t.beforeAccept++;
  }

  /** Drops pair times older than the spacing: they can no longer be violated. */
  prune(nowMs: number, pairSpacingMs: number): void {
    for (const n of this.numbers.values()) for (const [k, at] of n.lastByPair) if (nowMs - at >= pairSpacingMs) n.lastByPair.delete(k);
  }

  reset(): void {
    this.numbers.clear();
  }

  phoneNumberIds(): string[] {
    return [...this.numbers.keys()];
  }

  snapshot(phoneNumberId: string, limit: number): PhoneNumberStats {
    const n = this.of(phoneNumberId);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      phoneNumberId,
      throughputPerSecond: limit,
      accepted: n.accepted,
      rejected: n.rejected,
      rejectionsByCode: { ...n.rejectionsByCode },
      maxPerSecond: n.maxPerSecond,
      secondsOverLimit: n.secondsOverLimit,
      perSecond: n.perSecond.map((b) => ({ ...b })),
      pairViolations: n.pairViolations,
      duplicates: n.duplicates,
      timeouts: { ...n.timeouts },
      firstAcceptedAt: iso(n.firstAcceptedAt),
      lastAcceptedAt: iso(n.lastAcceptedAt),
    };
  }
}
