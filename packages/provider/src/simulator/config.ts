import type { WebhookTarget } from './webhook';

export type TimeoutMode = 'before_accept' | 'after_accept';

/** Share-based faults on the send route; each share is a probability in [0, 1] drawn from the seeded PRNG. */
export interface SimFaults {
  /** Answer 500 (code 1) or 503 (code 2) without accepting. */
  serverErrorShare: number;
  /** Hang the response for `hangMs`, then drop the connection. */
  timeoutShare: number;
  /** `before_accept`: nothing recorded; `after_accept`: accepted, counted and its statuses flow (a lost response). */
  timeoutMode: TimeoutMode;
  hangMs: number;
}

/** Gaps between one status and the next, each measured from when the previous step was handed to mos. */
export interface StatusDelays {
  sentMs: number;
  deliveredMs: number;
  readMs: number;
}

export interface StatusOptions {
  enabled: boolean;
  readShare: number;
  failShare: number;
  failCodes: number[];
}

export interface SimulatorConfig extends WebhookTarget {
  accessToken: string;
  /** When set, only this business account exists; otherwise any id is accepted (one store per id). */
  wabaId?: string;
  phoneNumberId?: string;
  /** `metadata.display_phone_number` in message webhooks (default 15550783881). */
  displayPhoneNumber?: string;
  /** `object` of message webhooks; the fixtures use `messaging_business_account` (default), the real provider `whatsapp_business_account`. */
  envelopeObject?: string;
  /** Sends per calendar second per phone number (default 80). */
  throughputPerSecond?: number;
  /** Per phone number overrides, e.g. `{ '1065...': 1000 }` for an upgraded number. */
  throughputByPhoneNumber?: Record<string, number>;
  /** Minimum gap between two accepted sends to one (phone number, recipient) pair (default 6000). */
  pairSpacingMs?: number;
  /** Customer service window after the customer's last inbound message (default 24 h). */
  serviceWindowMs?: number;
  /** `false` turns status webhooks off (default on). */
  statusWebhooks?: boolean;
  statusDelaysMs?: Partial<StatusDelays>;
  /** Share of delivered messages that are also read (default 0.5). */
  readShare?: number;
  /** Share of accepted messages that fail after `sent` instead of being delivered (default 0). */
  failShare?: number;
  /** Codes a failed message reports, picked uniformly (default [131026]). */
  failCodes?: number[];
  /** Period of the status flush loop (default 200). */
  statusFlushMs?: number;
  /** Most statuses in one envelope (default 50). */
  statusBatchMax?: number;
  /** Envelope POSTs in flight at once (default 4). */
  statusConcurrency?: number;
  /** Attempts per envelope before it is given up (default 8). */
  statusMaxAttempts?: number;
  /** First retry after this, doubling up to 10 s (default 250). */
  statusRetryBaseMs?: number;
  faults?: Partial<SimFaults>;
  /** PRNG seed for every share (faults, read, fail); default: random per start. */
  seed?: number;
  /** Full message records kept; older ones are dropped (counters are always kept). Default 100000. */
  messageCap?: number;
}

export const DEFAULT_WABA_ID = '102290129340398';
export const DEFAULT_DISPLAY_PHONE_NUMBER = '15550783881';
export const DEFAULT_THROUGHPUT = 80;
export const DEFAULT_PAIR_SPACING_MS = 6000;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_STATUS_DELAYS: StatusDelays = { sentMs: 100, deliveredMs: 300, readMs: 1000 };
export const DEFAULT_FAULTS: SimFaults = { serverErrorShare: 0, timeoutShare: 0, timeoutMode: 'before_accept', hangMs: 30_000 };

export const clockOf = (config: SimulatorConfig) => (): number => config.now?.().getTime() ?? Date.now();

export function statusOptionsOf(config: SimulatorConfig): StatusOptions {
  return {
    enabled: config.statusWebhooks !== false,
    readShare: config.readShare ?? 0.5,
    failShare: config.failShare ?? 0,
    failCodes: config.failCodes?.length ? [...config.failCodes] : [131026],
  };
}

/** mulberry32: tiny, fast and seedable, so a run with the same seed and request order rolls the same shares. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** E.164 with or without `+`, spaces or dashes: the digits are the provider's wa_id. */
export const digitsOf = (phone: string): string => phone.replace(/\D/g, '');
