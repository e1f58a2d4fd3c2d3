import { createHash, randomUUID } from 'node:crypto';
import {
  DEFAULT_DISPLAY_PHONE_NUMBER,
  DEFAULT_STATUS_DELAYS,
  DEFAULT_WABA_ID,
  statusOptionsOf,
  type StatusDelays,
  type StatusOptions,
  type SimulatorConfig,
} from './config';
import { DueQueue } from './fifo';
import { asyncError } from './graph-errors';
import type { SimMessage, SimStatusName } from './store';
import { deliverWebhook, messagesEnvelope } from './webhook';

interface Envelope {
  gen: number;
  items: { m: SimMessage; status: SimStatusName }[];
  raw: string;
  deliveryId: string;
  attempts: number;
}

export interface StatusCounters {
  enabled: boolean;
  /** Statuses waiting for their delay. */
  queued: number;
  /** Envelopes built and not yet acknowledged (ready, in flight or waiting to retry). */
  envelopesPending: number;
  /** Statuses mos acknowledged with a 2xx. */
  delivered: number;
  byStatus: Record<SimStatusName, number>;
  envelopesDelivered: number;
  /** Attempts answered non-2xx or not at all (each one is retried until `statusMaxAttempts`). */
  deliveryFailures: number;
  /** Envelopes dropped after their last attempt. */
  givenUp: number;
  /** Statuses due while no webhook URL was configured. */
  skippedNoUrl: number;
}

const zeroByStatus = (): Record<SimStatusName, number> => ({ sent: 0, delivered: 0, read: 0, failed: 0 });

/**
 * The provider's status webhooks for accepted messages: sent, then delivered (or failed), then
 * read for a share. One flush loop (driven by the simulator's tick, no timer per message)
 * takes the due statuses, groups them per phone number into envelopes of at most
 * `statusBatchMax`, and POSTs them with bounded concurrency, retrying with backoff. A
 * message's next status is scheduled only once mos acknowledged the previous one (or it was
 * given up), so each message's statuses arrive in order even with several envelopes in flight.
 * Each stage has a constant delay, so its queue stays in due order and every step is O(1).
 */
export class StatusPipeline {
  delays: StatusDelays;
  options: StatusOptions;
  private readonly sent = new DueQueue<SimMessage>();
  private readonly outcome = new DueQueue<SimMessage>();
  private readonly read = new DueQueue<SimMessage>();
  private readonly retries = new DueQueue<Envelope>();
  private ready: Envelope[] = [];
  private inFlight = 0;
  private waitingRetries = 0;
  private gen = 0;
  private lastFlush = 0;
  private idleWaiters: (() => void)[] = [];
  private counters = { delivered: 0, byStatus: zeroByStatus(), envelopesDelivered: 0, deliveryFailures: 0, givenUp: 0, skippedNoUrl: 0 };

  constructor(
    private readonly config: SimulatorConfig,
    /** The simulator clock: status timestamps follow it, delays run on real time. */
    private readonly clock: () => number,
  ) {
    this.delays = { ...DEFAULT_STATUS_DELAYS, ...config.statusDelaysMs };
    this.options = statusOptionsOf(config);
  }

  accept(m: SimMessage): void {
    if (this.options.enabled) this.sent.push(Date.now() + this.delays.sentMs, m);
  }

  /** Called by the simulator's tick: flushes once per `statusFlushMs`. */
  tick(now: number): void {
    if (now - this.lastFlush >= (this.config.statusFlushMs ?? 200)) this.flush(now);
  }

  /** Builds envelopes from the due statuses (all of them with `force`) and starts delivering; `retriesNow` skips retry backoff. */
  flush(now: number, force = false, retriesNow = force): void {
    this.lastFlush = now;
    const until = force ? Infinity : now;
    const due: Envelope['items'] = [];
    for (const m of this.sent.popDue(until)) due.push({ m, status: 'sent' });
    for (const m of this.outcome.popDue(until)) due.push({ m, status: m.plan.fails ? 'failed' : 'delivered' });
    for (const m of this.read.popDue(until)) due.push({ m, status: 'read' });
    for (const e of this.retries.popDue(retriesNow ? Infinity : now)) {
      this.waitingRetries--;
      this.ready.push(e);
    }
    if (due.length) this.envelopes(due);
    this.pump();
  }

  private envelopes(due: Envelope['items']): void {
    const max = Math.max(1, this.config.statusBatchMax ?? 50);
    const byNumber = new Map<string, Envelope['items']>();
    for (const d of due) {
      const list = byNumber.get(d.m.phoneNumberId);
      if (list) list.push(d);
      else byNumber.set(d.m.phoneNumberId, [d]);
    }
    const nowMs = this.clock();
    for (const [phoneNumberId, items] of byNumber) {
      for (let i = 0; i < items.length; i += max) {
        const chunk = items.slice(i, i + max);
        const envelope = messagesEnvelope(
          {
            object: this.config.envelopeObject ?? 'messaging_business_account',
            wabaId: this.config.wabaId ?? DEFAULT_WABA_ID,
            phoneNumberId,
            displayPhoneNumber: this.config.displayPhoneNumber ?? DEFAULT_DISPLAY_PHONE_NUMBER,
          },
          { statuses: chunk.map((c) => statusObject(c.m, c.status, nowMs)) },
        );
        this.ready.push({ gen: this.gen, items: chunk, raw: JSON.stringify(envelope), deliveryId: randomUUID(), attempts: 0 });
      }
    }
  }

  private pump(): void {
    const limit = Math.max(1, this.config.statusConcurrency ?? 4);
    while (this.inFlight < limit && this.ready.length) {
      this.inFlight++;
      void this.deliver(this.ready.shift()!);
    }
    if (this.inFlight === 0 && this.ready.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async deliver(e: Envelope): Promise<void> {
    let ok = false;
    if (!this.config.url) {
      this.counters.skippedNoUrl += e.items.length;
    } else {
      try {
        const res = await deliverWebhook(this.config, e.raw, { deliveryId: e.deliveryId });
        ok = !!res && res.status >= 200 && res.status < 300;
      } catch {
        ok = false;
      }
    }
    this.inFlight--;
    if (e.gen === this.gen) this.settle(e, ok);
    this.pump();
  }

  private settle(e: Envelope, ok: boolean): void {
    const now = Date.now();
    if (ok) {
      this.counters.envelopesDelivered++;
      this.counters.delivered += e.items.length;
      for (const { m, status } of e.items) {
        m.statuses.push(status);
        this.counters.byStatus[status]++;
      }
    } else if (this.config.url) {
      this.counters.deliveryFailures++;
      e.attempts++;
      if (e.attempts < (this.config.statusMaxAttempts ?? 8)) {
        const backoff = Math.min(10_000, (this.config.statusRetryBaseMs ?? 250) * 2 ** (e.attempts - 1));
        this.waitingRetries++;
        this.retries.push(now + backoff, e);
        return;
      }
      this.counters.givenUp++;
    }
    // Delivered, given up or nowhere to send: the message itself moves on either way.
    for (const { m, status } of e.items) {
      if (status === 'sent') this.outcome.push(now + this.delays.deliveredMs, m);
      else if (status === 'delivered' && m.plan.read) this.read.push(now + this.delays.readMs, m);
    }
  }

  private idle(): Promise<void> {
    if (this.inFlight === 0 && this.ready.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Delivers every due status (and pending retries) and resolves once mos answered them; with
   * `all`, keeps going, ignoring delays, until every accepted message reached its last status.
   */
  async flushAll(all = false): Promise<void> {
    for (let round = 0; round < 10_000; round++) {
      this.flush(Date.now(), all, true);
      await this.idle();
      if (!all || this.sent.size + this.outcome.size + this.read.size + this.waitingRetries === 0) return;
    }
  }

  snapshot(): StatusCounters {
    return {
      enabled: this.options.enabled,
      queued: this.sent.size + this.outcome.size + this.read.size,
      envelopesPending: this.ready.length + this.inFlight + this.waitingRetries,
      ...this.counters,
      byStatus: { ...this.counters.byStatus },
    };
  }

  /** Drops everything queued; envelopes already in flight finish but change nothing. */
  reset(): void {
    this.gen++;
    for (const q of [this.sent, this.outcome, this.read, this.retries]) q.clear();
    this.ready = [];
    this.waitingRetries = 0;
    this.counters = { delivered: 0, byStatus: zeroByStatus(), envelopesDelivered: 0, deliveryFailures: 0, givenUp: 0, skippedNoUrl: 0 };
    this.delays = { ...DEFAULT_STATUS_DELAYS, ...this.config.statusDelaysMs };
    this.options = statusOptionsOf(this.config);
  }
}

/** One `statuses[]` entry in the fixtures' shape; `sent` and `delivered` carry conversation and pricing, `failed` its errors. */
export function statusObject(m: SimMessage, status: SimStatusName, nowMs: number): Record<string, unknown> {
  const s: Record<string, unknown> = { id: m.id, status, timestamp: String(Math.floor(nowMs / 1000)), recipient_id: m.waId };
  if (m.callbackData !== undefined) s.biz_opaque_callback_data = m.callbackData;
  if (status === 'sent' || status === 'delivered') {
    const opened = Math.floor(Date.parse(m.acceptedAt) / 1000);
    s.conversation = {
      id: createHash('md5').update(`${m.phoneNumberId}|${m.waId}|${m.category}`).digest('hex'),
      expiration_timestamp: String(opened + 86_400),
      origin: { type: m.category },
    };
    s.pricing = { billable: m.category !== 'service', pricing_model: 'PMP', category: m.category };
  }
  if (status === 'failed') s.errors = [asyncError(m.plan.failCode ?? 131026)];
  return s;
}
