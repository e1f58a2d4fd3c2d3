import { sql } from 'drizzle-orm';
import { PROCESS_WEBHOOK_EVENT, SIGNAL_JOURNEY_REPLY, START_JOURNEY_RUN } from '@mos/core';
import type { Db } from '@mos/db';
import type { Logger } from '@mos/config';
import { Counter, Gauge, Histogram, createMetricsRegistry, type Registry } from '@mos/http';
import type { SendObserver, WebhookObserver } from '@mos/workflows';
import { providerCodeLabel } from './provider-code-label';
import type { RelayObserver } from './outbox-relay';

export type JourneyJobKind = 'start' | 'signal';

/**
 * Every figure the worker process exposes on /metrics (docs/operations.md lists them), and the
 * observers that move them: the relay, the journey starter, the governor sweep and the
 * activities (webhook processing and sends) each get theirs. One per process; label values
 * all come from fixed sets.
 */
export interface WorkerMetrics {
  registry: Registry;
  relay: RelayObserver;
  webhooks: WebhookObserver;
  sends: SendObserver;
  journeyJob(kind: JourneyJobKind, outcome: 'done' | 'deferred'): void;
  governorSignal(outcome: 'sent' | 'failed'): void;
}

const QUEUE_STATUSES = ['pending', 'dispatched', 'retrying'] as const;
const KNOWN_JOB_TYPES = [PROCESS_WEBHOOK_EVENT, START_JOURNEY_RUN, SIGNAL_JOURNEY_REPLY];

interface QueueRow extends Record<string, unknown> {
  job_type: string;
  status: string;
  n: number;
  oldest_due_s: number;
}

/**
 * The outbox backlog by job type and status, read at scrape time: the partial and status
 * indexes of outbox_jobs serve it, so a scrape every 15 s costs one short query.
 */
async function readQueue(db: Db): Promise<QueueRow[]> {
  const res = await db.execute<QueueRow>(sql`
    SELECT job_type, status, count(*)::int AS n,
           coalesce(extract(epoch FROM now() - min(available_at) FILTER (WHERE status = 'pending' AND available_at <= now())), 0)::float8 AS oldest_due_s
      FROM outbox_jobs
     WHERE status IN ('pending', 'dispatched', 'retrying')
     GROUP BY job_type, status`);
  return res.rows;
}

export function createWorkerMetrics(opts: { db: Db; log: Logger; registry?: Registry }): WorkerMetrics {
  const registry = opts.registry ?? createMetricsRegistry('worker');
  const registers = [registry];

  const queueReadFailures = new Counter({
    name: 'mos_outbox_backlog_query_failures_total',
    help: 'Scrapes whose outbox backlog query failed (the queue gauges are then absent).',
    registers,
  });
  // One query per scrape feeds both queue gauges (prom-client collects them in the same tick).
  let reading: Promise<QueueRow[] | null> | null = null;
  const queue = () =>
    (reading ??= readQueue(opts.db)
      .catch((err: unknown) => {
        queueReadFailures.inc();
        opts.log.warn({ err: (err as Error).message }, 'metrics: outbox backlog query failed');
        return null;
      })
      .finally(() => setImmediate(() => (reading = null))));

  new Gauge({
    name: 'mos_outbox_jobs',
    help: 'Outbox jobs not finished, by job type (kind) and status: pending (waiting for the relay), dispatched (in a batch run), retrying (in their own run).',
    labelNames: ['kind', 'status'] as const,
    registers,
    async collect() {
      const rows = await queue();
      this.reset();
      if (!rows) return;
      for (const kind of KNOWN_JOB_TYPES) for (const status of QUEUE_STATUSES) this.set({ kind, status }, 0);
      for (const r of rows) this.set({ kind: r.job_type, status: r.status }, r.n);
    },
  });
  new Gauge({
    name: 'mos_outbox_oldest_pending_seconds',
    help: 'Age of the oldest pending outbox job that is due (available_at passed), by job type; 0 when none waits.',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const rows = await queue();
      this.reset();
      if (!rows) return;
      for (const kind of KNOWN_JOB_TYPES) this.set({ kind }, 0);
      for (const r of rows) if (r.status === 'pending') this.set({ kind: r.job_type }, r.oldest_due_s);
    },
  });

  const batchSize = new Histogram({
    name: 'mos_webhook_batch_size',
    help: 'Webhooks per batch the relay claimed.',
    buckets: [1, 2, 5, 10, 25, 50],
    registers,
  });
  const batches = new Counter({
    name: 'mos_webhook_batches_total',
    help: 'Batches the relay claimed, by outcome: started, start_failed (the sweep starts it again), recovered (a stale batch the sweep checked).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const batchJobs = new Counter({
    name: 'mos_webhook_batch_jobs_total',
    help: 'Webhooks a batch call handled, by outcome: applied, already_applied, failed (handed to its own run), not_attempted (left to the next call).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const processed = new Counter({
    name: 'mos_webhooks_processed_total',
    help: 'Webhooks finished by this worker, by status: processed, failed (given up, see GET /internal/webhooks?status=failed).',
    labelNames: ['status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'mos_webhook_processing_latency_seconds',
    help: 'From the ingress storing a webhook to the worker committing its effects.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers,
  });
  const statuses = new Counter({
    name: 'mos_message_statuses_total',
    help: 'Message statuses the provider reported on status webhooks (sent, delivered, read, played, failed, deleted).',
    labelNames: ['status'] as const,
    registers,
  });
  const sends = new Counter({
    name: 'mos_sends_total',
    help: 'Provider answers to sends, by outcome: accepted, throttled, pair_limited, window_closed, rejected, transient, unknown (no answer), unexpected_error.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const providerErrors = new Counter({
    name: 'mos_provider_errors_total',
    help: "Provider error codes, by code (known codes; 'other' for the rest) and stage: send (the answer to a send) or status (a failed status webhook).",
    labelNames: ['code', 'stage'] as const,
    registers,
  });
  const journeyJobs = new Counter({
    name: 'mos_journey_jobs_total',
    help: 'Journey outbox jobs the worker handled, by kind (start, signal) and outcome (done, deferred: retried with backoff).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const governorSignals = new Counter({
    name: 'mos_governor_sweep_signals_total',
    help: 'Signals the governor sweep sent to numbers with due messages, by outcome (sent, failed).',
    labelNames: ['outcome'] as const,
    registers,
  });

  return {
    registry,
    relay: {
      batch(size, started) {
        batchSize.observe(size);
        batches.inc({ outcome: started ? 'started' : 'start_failed' });
      },
      recovered: () => batches.inc({ outcome: 'recovered' }),
    },
    webhooks: {
      batchOutcome: (outcome) => batchJobs.inc({ outcome }),
      processed({ receivedAt, statuses: seen }) {
        processed.inc({ status: 'processed' });
        latency.observe(Math.max(0, Date.now() - receivedAt.getTime()) / 1000);
        for (const s of seen) {
          statuses.inc({ status: s.status });
          if (s.errorCode !== null) providerErrors.inc({ code: providerCodeLabel(s.errorCode), stage: 'status' });
        }
      },
      failed: () => processed.inc({ status: 'failed' }),
    },
    sends: {
      answered(answer, errorCode) {
        sends.inc({ outcome: answer });
        if (errorCode !== null) providerErrors.inc({ code: providerCodeLabel(errorCode), stage: 'send' });
      },
    },
    journeyJob: (kind, outcome) => journeyJobs.inc({ kind, outcome }),
    governorSignal: (outcome) => governorSignals.inc({ outcome }),
  };
}
