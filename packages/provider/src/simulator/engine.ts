import { randomBytes, randomInt } from 'node:crypto';
import { componentsSchema } from '@mos/core';
import { clockOf, DEFAULT_DISPLAY_PHONE_NUMBER, DEFAULT_WABA_ID, digitsOf, seededRandom, type SimulatorConfig } from './config';
import { FaultInjector, HangingResponses } from './faults';
import { PairLimiter, ServiceWindows, Throughput } from './limits';
import { SimStats, type PhoneNumberStats } from './stats';
import { StatusPipeline, type StatusCounters } from './status-webhooks';
import type { SimStore, SimTemplate, SimTemplateStatus } from './store';
import { deliverWebhook, inboundTextValue, messagesEnvelope } from './webhook';

export const DEFAULT_PHONE_NUMBER_ID = '106540352242922';
const TICK_MS = 20;
const PRUNE_EVERY_MS = 10_000;

export interface SeedTemplate {
  name: string;
  language: string;
  category?: string;
  components: unknown[];
  parameter_format?: string;
  /** Default APPROVED; PAUSED or DISABLED to exercise 132015 / 132016. */
  status?: SimTemplateStatus;
  wabaId?: string;
}

export interface InboundInput {
  from: string;
  phoneNumberId?: string;
  /** When the customer wrote (default now): ISO string, Date or epoch milliseconds. */
  at?: string | number | Date;
  text?: string;
  name?: string;
  /** Also POST the signed inbound-message webhook to mos. */
  deliver?: boolean;
}

export interface SimStatsSnapshot {
  seed: number;
  accepted: number;
  rejected: number;
  rejectionsByCode: Record<string, number>;
  maxPerSecond: number;
  secondsOverLimit: number;
  pairViolations: number;
  duplicates: number;
  timeouts: { beforeAccept: number; afterAccept: number };
  firstAcceptedAt: string | null;
  lastAcceptedAt: string | null;
  messagesKept: number;
  statusesDelivered: number;
  webhookDeliveryFailures: number;
  statuses: StatusCounters;
  hangingResponses: number;
  phoneNumbers: Record<string, PhoneNumberStats>;
}

export const toMs = (at: string | number | Date): number => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at));

/**
 * The simulator's moving parts behind the send route and the control routes, with the one
 * tick that drives every timed behaviour (status flushes, held responses, pruning).
 */
export class SimEngine {
  readonly clock: () => number;
  readonly seed: number;
  random: () => number;
  readonly throughput: Throughput;
  readonly pairs: PairLimiter;
  readonly windows: ServiceWindows;
  readonly stats = new SimStats();
  readonly statuses: StatusPipeline;
  readonly faults: FaultInjector;
  readonly hangs = new HangingResponses();
  private seq = 0;
  private readonly nonce = randomBytes(6).toString('hex');
  private lastPrune = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly config: SimulatorConfig,
    readonly store: SimStore,
  ) {
    this.clock = clockOf(config);
    this.seed = config.seed ?? randomInt(2 ** 31);
    this.random = seededRandom(this.seed);
    this.throughput = new Throughput(config);
    this.pairs = new PairLimiter(config);
    this.windows = new ServiceWindows(config);
    this.statuses = new StatusPipeline(config, this.clock);
    this.faults = new FaultInjector(config, () => this.random());
    store.messages.cap = config.messageCap ?? 100_000;
    this.timer = setInterval(() => this.tick(), Math.min(TICK_MS, config.statusFlushMs ?? 200));
    this.timer.unref();
  }

  /** Unique across restarts (random prefix) and cheap (a counter): wamids must never repeat in mos's tables. */
  newMessageId(): string {
    return `wamid.${Buffer.from(`${this.nonce}.${(++this.seq).toString(36)}`).toString('base64url')}`;
  }

  private tick(): void {
    const now = Date.now();
    this.hangs.release(now);
    this.statuses.tick(now);
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      const sim = this.clock();
      this.pairs.prune(sim);
      this.stats.prune(sim, this.pairs.spacingMs);
    }
  }

  /** Clears messages, counters, windows, faults, queued statuses and held responses; templates only when asked. */
  reset(options: { templates?: boolean } = {}): void {
    this.store.messages.clear();
    this.store.clearFaults();
    if (options.templates) this.store.templates.clear();
    this.random = seededRandom(this.seed);
    this.throughput.reset();
    this.pairs.reset();
    this.windows.reset();
    this.stats.reset();
    this.statuses.reset();
    this.faults.reset();
    this.hangs.releaseAll();
  }

  async inbound(input: InboundInput): Promise<{ from: string; at: string; messageId: string; webhook: { status: number; deliveryId: string } | null }> {
    const atMs = input.at === undefined ? this.clock() : toMs(input.at);
    if (!Number.isFinite(atMs)) throw new Error('at must be an ISO date or epoch milliseconds');
    const waId = digitsOf(input.from);
    if (!waId) throw new Error('from must be a phone number');
    this.windows.open(waId, atMs, input.phoneNumberId);
    const messageId = this.newMessageId();
    let webhook = null;
    if (input.deliver) {
      const envelope = messagesEnvelope(
        {
          object: this.config.envelopeObject ?? 'messaging_business_account',
          wabaId: this.config.wabaId ?? DEFAULT_WABA_ID,
          phoneNumberId: input.phoneNumberId ?? this.config.phoneNumberId ?? DEFAULT_PHONE_NUMBER_ID,
          displayPhoneNumber: this.config.displayPhoneNumber ?? DEFAULT_DISPLAY_PHONE_NUMBER,
        },
        inboundTextValue({ waId, name: input.name ?? 'Simulated Customer', id: messageId, atMs, text: input.text ?? 'Hello' }),
      );
      try {
        webhook = await deliverWebhook(this.config, envelope);
      } catch (err) {
        throw Object.assign(new Error(`inbound recorded (window open) but webhook delivery failed: ${(err as Error).message}`), { status: 502 });
      }
    }
    return { from: waId, at: new Date(atMs).toISOString(), messageId, webhook };
  }

  /** Puts a template straight into the store (upsert by account, name and language), skipping review. */
  seedTemplate(input: SeedTemplate): SimTemplate {
    const parsed = componentsSchema.safeParse(input.components);
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `components.${i.path.join('.')}: ${i.message}`).join('; '));
    const wabaId = input.wabaId ?? this.config.wabaId ?? DEFAULT_WABA_ID;
    const fields = {
      category: (input.category ?? 'UTILITY').toUpperCase(),
      parameter_format: (input.parameter_format ?? 'POSITIONAL').toUpperCase(),
      components: parsed.data,
      status: input.status ?? ('APPROVED' as const),
    };
    const existing = this.store.find(wabaId, input.name, input.language);
    if (existing) return Object.assign(existing, fields);
    const t: SimTemplate = { id: this.store.newTemplateId(), wabaId, name: input.name, language: input.language, ...fields };
    this.store.templates.set(t.id, t);
    return t;
  }

  snapshot(phoneNumberId?: string): SimStatsSnapshot {
    const ids = phoneNumberId ? [phoneNumberId] : this.stats.phoneNumberIds();
    const numbers = ids.map((id) => this.stats.snapshot(id, this.throughput.limitOf(id)));
    const sum = (f: (n: PhoneNumberStats) => number) => numbers.reduce((a, n) => a + f(n), 0);
    const rejectionsByCode: Record<string, number> = {};
    for (const n of numbers) for (const [code, count] of Object.entries(n.rejectionsByCode)) rejectionsByCode[code] = (rejectionsByCode[code] ?? 0) + count;
    const times = (f: (n: PhoneNumberStats) => string | null) =>
      numbers
        .map(f)
        .filter((t): t is string => t !== null)
        .sort();
    const statuses = this.statuses.snapshot();
    return {
      seed: this.seed,
      accepted: sum((n) => n.accepted),
      rejected: sum((n) => n.rejected),
      rejectionsByCode,
      maxPerSecond: Math.max(0, ...numbers.map((n) => n.maxPerSecond)),
      secondsOverLimit: sum((n) => n.secondsOverLimit),
      pairViolations: sum((n) => n.pairViolations),
      duplicates: sum((n) => n.duplicates),
      timeouts: { beforeAccept: sum((n) => n.timeouts.beforeAccept), afterAccept: sum((n) => n.timeouts.afterAccept) },
      firstAcceptedAt: times((n) => n.firstAcceptedAt)[0] ?? null,
      lastAcceptedAt: times((n) => n.lastAcceptedAt).at(-1) ?? null,
      messagesKept: this.store.messages.size,
      statusesDelivered: statuses.delivered,
      webhookDeliveryFailures: statuses.deliveryFailures,
      statuses,
      hangingResponses: this.hangs.size,
      phoneNumbers: Object.fromEntries(numbers.map((n) => [n.phoneNumberId, n])),
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.hangs.releaseAll();
  }
}
