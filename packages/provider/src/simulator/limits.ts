import { DAY_MS, DEFAULT_PAIR_SPACING_MS, DEFAULT_THROUGHPUT, digitsOf, type SimulatorConfig } from './config';

/**
 * Per phone number throughput in calendar seconds (floor(now / 1000)), as the provider meters
 * it: every send that gets past this gate takes a slot, whatever happens to it afterwards, so
 * accepted sends in a second can never exceed the limit.
 */
export class Throughput {
  private readonly overrides = new Map<string, number>();
  private readonly windows = new Map<string, { second: number; used: number }>();
  constructor(private readonly config: SimulatorConfig) {}

  limitOf(phoneNumberId: string): number {
    return this.overrides.get(phoneNumberId) ?? this.config.throughputByPhoneNumber?.[phoneNumberId] ?? this.config.throughputPerSecond ?? DEFAULT_THROUGHPUT;
  }

  set(phoneNumberId: string, perSecond: number): void {
    this.overrides.set(phoneNumberId, perSecond);
  }

  /** Takes a slot in `nowMs`'s second; false when the second is already full. */
  take(phoneNumberId: string, nowMs: number): boolean {
    const second = Math.floor(nowMs / 1000);
    let w = this.windows.get(phoneNumberId);
    if (!w) this.windows.set(phoneNumberId, (w = { second, used: 0 }));
    if (w.second !== second) Object.assign(w, { second, used: 0 });
    if (w.used >= this.limitOf(phoneNumberId)) return false;
    w.used++;
    return true;
  }

  reset(): void {
    this.overrides.clear();
    this.windows.clear();
  }
}

/** One accepted message per `pairSpacingMs` per (phone number, recipient). */
export class PairLimiter {
  private last = new Map<string, number>();
  constructor(private readonly config: SimulatorConfig) {}

  get spacingMs(): number {
    return this.config.pairSpacingMs ?? DEFAULT_PAIR_SPACING_MS;
  }

  allowed(phoneNumberId: string, waId: string, nowMs: number): boolean {
    const at = this.last.get(`${phoneNumberId}|${waId}`);
    return at === undefined || nowMs - at >= this.spacingMs || nowMs < at;
  }

  accepted(phoneNumberId: string, waId: string, nowMs: number): void {
    this.last.set(`${phoneNumberId}|${waId}`, nowMs);
  }

  /** Forgets pairs whose spacing has passed, so memory follows recent recipients, not all of them. */
  prune(nowMs: number): void {
    for (const [k, at] of this.last) if (nowMs - at >= this.spacingMs) this.last.delete(k);
  }

  reset(): void {
    this.last.clear();
  }
}

/**
 * Customer service windows: the time of each customer's last inbound message, per business
 * phone number, or for every number when recorded without one (`*`).
 */
export class ServiceWindows {
  private readonly opened = new Map<string, number>();
  constructor(private readonly config: SimulatorConfig) {}

  private key(from: string, phoneNumberId?: string) {
    return `${phoneNumberId ?? this.config.phoneNumberId ?? '*'}|${digitsOf(from)}`;
  }

  open(from: string, atMs: number, phoneNumberId?: string): void {
    this.opened.set(this.key(from, phoneNumberId), atMs);
  }

  close(from: string, phoneNumberId?: string): void {
    this.opened.delete(this.key(from, phoneNumberId));
    if (!phoneNumberId) this.opened.delete(`*|${digitsOf(from)}`);
  }

  isOpen(phoneNumberId: string, waId: string, nowMs: number): boolean {
    const span = this.config.serviceWindowMs ?? DAY_MS;
    for (const k of [`${phoneNumberId}|${waId}`, `*|${waId}`]) {
      const at = this.opened.get(k);
      if (at !== undefined && nowMs - at < span) return true;
    }
    return false;
  }

  reset(): void {
    this.opened.clear();
  }
}
