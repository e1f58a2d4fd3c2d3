import { Context } from '@temporalio/activity';
import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import {
  COMPAT_SOURCE,
  escapeNul,
  normalizeCompatEvent,
  normalizeEnvelope,
  parseProviderEnvelope,
  summarizeEvent,
  type Clock,
  type NormalizedEvent,
} from '@mos/core';
import {
  LANE_FREED,
  boundStatementTime,
  finishWebhookProcessing,
  handOffWebhookJobs,
  loadEventForProcessing,
  loadJobForApply,
  notifyOutbox,
  recordWebhookProcessed,
  type Db,
  type DbOrTx,
} from '@mos/db';
import type { Logger } from '@mos/config';
import {
  WebhookFailureType,
  handedOffWorkflowId,
  type ApplyWebhookBatchResult,
  type ProcessWebhookBatchInput,
  type ProcessWebhookEventInput,
  type ProcessWebhookEventResult,
  type WebhookBatchJob,
  type WebhookOutcome,
} from './contract';
import { applyFamily, type FamilyEffects } from './effects/family-effects';
import { statusesOf, type ObservedStatus, type WebhookObserver } from './observer';

export interface ActivityDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  effects: FamilyEffects;
  /** The worker's counters (docs/operations.md); told only after a commit. */
  observe?: WebhookObserver;
}

/** Ingress topics for bodies the ingress could not read as an envelope, and the failure type each keeps. */
const UNPARSEABLE_TOPICS: Record<string, WebhookFailureType> = {
  invalid_json: WebhookFailureType.InvalidJson,
  invalid_payload: WebhookFailureType.InvalidPayload,
};

function permanent(type: WebhookFailureType, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

/**
 * Normalization is pure: if it cannot read the stored envelope, no retry will change that.
 * It fails once, non-retryably, as InvalidPayload, saying which changes could not be read:
 * when nothing was usable, or should the (total, property-tested) normalizer ever throw.
 */
function normalizeOrFail(envelope: Parameters<typeof normalizeEnvelope>[0]): ReturnType<typeof normalizeEnvelope> {
  let normalized: ReturnType<typeof normalizeEnvelope>;
  try {
    normalized = normalizeEnvelope(envelope);
  } catch (err) {
    throw permanent(WebhookFailureType.InvalidPayload, `the envelope could not be normalized: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
  }
  const unreadable = normalized.skipped.filter((s) => s.reason === 'invalid_value');
  if (normalized.events.length === 0 && unreadable.length > 0) {
    const fields = [...new Set(unreadable.map((s) => s.field))].join(', ');
    throw permanent(WebhookFailureType.InvalidPayload, `no change could be read: the value of ${fields} does not match the provider's documented shape`);
  }
  return normalized;
}

/** The PostgreSQL error code (SQLSTATE) of a database error, possibly wrapped (drizzle's "Failed query"). */
function sqlState(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/**
 * An effect's own failure (an ApplicationFailure, e.g. a non-retryable rejection) passes as it
 * is. Anything else is replaced by a retryable failure that says only what failed and the
 * PostgreSQL error code: drizzle's message carries the query and its parameters (phone
 * numbers, names, message text), and the message becomes the Temporal failure and the
 * delivery's stored error.
 */
function withoutPersonalData(err: unknown, family: string): unknown {
  if (err instanceof TemporalFailure) return err;
  const code = sqlState(err);
  const what = code ? `database error ${code}` : `${err instanceof Error ? err.name : typeof err} thrown`;
  return ApplicationFailure.retryable(`applying a ${family} family failed: ${what}`, WebhookFailureType.EffectFailed);
}

/**
 * Races work against the activity's cancellation (worker shutdown, heartbeat timeout seen by
 * the server) so a stuck effect cannot hold a shutting-down worker; the attempt then fails and
 * Temporal retries it on a live worker. Heartbeats let the server notice a dead worker within
 * the heartbeat timeout instead of the start-to-close timeout.
 */
async function cancellable<T>(work: Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 1_000);
  try {
    return await Promise.race([work, ctx.cancelled]);
  } finally {
    clearInterval(beat);
  }
}

type Run = { workflowId: string; runId: string };

/** The run an activity (local or not) belongs to, recorded on the event row it changes. */
function currentRun(): Run | undefined {
  // Outside an activity (the benchmark's no-Temporal baseline) there is no run to link.
  let run;
  try {
    run = Context.current().info.workflowExecution;
  } catch {
    return undefined;
  }
  return run ? { workflowId: run.workflowId, runId: run.runId } : undefined;
}

/**
 * One webhook, applied in the caller's transaction: lock the job, skip it if its delivery is
 * already processed, load, decode, normalize, apply every family, record the processed
 * delivery. All of it commits together or not at all, so a retried batch, a crashed worker or
 * an operator's reset never applies a webhook twice. Throws a non-retryable ApplicationFailure
 * for a webhook that can never apply, a retryable one otherwise.
 */
interface Applied {
  outcome: 'applied' | 'already_applied';
  deliveryId: string;
  topic: string;
  familyCount: number;
  skippedCount: number;
  /** For the observer, when applied now: when the ingress stored it, and its statuses. */
  observed?: { receivedAt: Date; statuses: ObservedStatus[] };
}

/**
 * A compat call (source `compat`): read with the ingress's own parsers from the stored bytes and
 * the summary the ingress resolved, applied in the caller's transaction, recorded like a
 * webhook. A body that no longer reads is permanent (InvalidPayload), as for provider webhooks.
 */
async function applyCompatCall(
  deps: ActivityDeps,
  tx: DbOrTx,
  job: WebhookBatchJob,
  event: NonNullable<Awaited<ReturnType<typeof loadJobForApply>>['event']>,
  run: Run | undefined,
): Promise<Applied> {
  if (!event.rawBody) throw permanent(WebhookFailureType.InvalidPayload, 'stored event has no body');
  const read = normalizeCompatEvent(event.summary, event.rawBody);
  if (!read.ok) throw permanent(WebhookFailureType.InvalidPayload, read.message);
  const family = escapeNul(read.value.family) as typeof read.value.family;
  try {
    await deps.effects.applyCompat(tx, job.workspaceId, family, read.value.summary);
  } catch (err) {
    throw withoutPersonalData(err, family.family);
  }
  const ref =
    family.family === 'compat.contact_upsert'
      ? family.contactId
      : family.family === 'compat.journey_trigger'
        ? family.journeyId
        : family.eventName.slice(0, 200);
  await recordWebhookProcessed(tx, job.workspaceId, {
    deliveryId: job.deliveryId,
    webhookEventId: job.webhookEventId,
    jobId: job.jobId,
    topic: event.topic,
    families: [{ family: family.family, ref, detail: read.value.summary.route.slice(0, 100) }],
    now: deps.clock.now(),
    run,
  });
  return {
    outcome: 'applied',
    deliveryId: job.deliveryId,
    topic: event.topic,
    familyCount: 1,
    skippedCount: 0,
    observed: { receivedAt: event.receivedAt, statuses: [] },
  };
}

/**
 * `seen.topic` is the stored topic once the event is loaded, so a webhook that then fails
 * carries it to its own run's search attributes without another read.
 */
async function applyWebhook(deps: ActivityDeps, tx: DbOrTx, job: WebhookBatchJob, run: Run | undefined, seen: { topic?: string } = {}): Promise<Applied> {
  const { workspaceId, webhookEventId, jobId } = job;
  const { jobStatus, delivery: done, event } = await loadJobForApply(tx, workspaceId, jobId, webhookEventId);
  if (done?.status === 'processed') {
    const already: Applied = { outcome: 'already_applied', deliveryId: done.id, topic: done.topic, familyCount: done.families.length, skippedCount: 0 };
    if (jobStatus === 'completed') return already;
    // Recorded but the job not finished: only runs from before batching wrote these apart.
    await recordWebhookProcessed(tx, workspaceId, {
      deliveryId: done.id,
      webhookEventId,
      jobId,
      topic: done.topic,
      families: done.families,
      now: done.processedAt ?? deps.clock.now(),
    });
    return already;
  }

  if (!event) throw permanent(WebhookFailureType.EventNotFound, `webhook event ${webhookEventId} not found in workspace`);
  seen.topic = event.topic;
  if (event.source === COMPAT_SOURCE) return applyCompatCall(deps, tx, job, event, run);
  const storedAsUnparseable = UNPARSEABLE_TOPICS[event.topic];
  if (!event.rawBody) throw permanent(storedAsUnparseable ?? WebhookFailureType.InvalidPayload, 'stored event has no body');
  // The ingress's parser, re-run on the stored bytes even when the ingress already called
  // them invalid: its issues say why in words an operator can act on ("the envelope's object
  // is ..."), which the stored topic alone does not.
  const decoded = parseProviderEnvelope(event.rawBody);
  if (!decoded.ok) {
    const type = storedAsUnparseable ?? (decoded.summary.topic === 'invalid_json' ? WebhookFailureType.InvalidJson : WebhookFailureType.InvalidPayload);
    throw permanent(type, decoded.issues.slice(0, 3).join('; '));
  }
  // Stored as unparseable by an older parser (before whatsapp_business_account was accepted)
  // but readable now: a job in flight across a deploy (a replay is parsed again at ingress,
  // into a new event row). Process it, and the event row takes the topic and summary the
  // parser derives today.
  const topic = storedAsUnparseable ? decoded.summary.topic : event.topic;
  const { summary } = decoded;
  const reparsed =
    storedAsUnparseable && event.topic !== summary.topic
      ? { topic, summary: { ...summary }, accountId: summary.accountId, phoneNumberId: summary.phoneNumberId, displayPhoneNumber: summary.displayPhoneNumber }
      : undefined;

  const normalized = normalizeOrFail(decoded.envelope);
  // Once, for every effect: the provider may send a NUL inside any string (a message text, a
  // profile name), which PostgreSQL refuses in text and jsonb; kept as the text \u0000.
  const families = escapeNul(normalized.events) as NormalizedEvent[];
  for (const family of families) {
    try {
      await applyFamily(deps.effects, tx, workspaceId, family);
    } catch (err) {
      throw withoutPersonalData(err, family.family);
    }
  }
  await recordWebhookProcessed(tx, workspaceId, {
    deliveryId: job.deliveryId,
    webhookEventId,
    jobId,
    topic,
    families: families.map(summarizeEvent),
    now: deps.clock.now(),
    reparsed,
    run,
  });
  return {
    outcome: 'applied',
    deliveryId: job.deliveryId,
    topic,
    familyCount: families.length,
    skippedCount: normalized.skipped.length,
    observed: { receivedAt: event.receivedAt, statuses: statusesOf(families) },
  };
}

/** The failure type and a message safe to store (no personal data) for anything applyWebhook threw. */
function failureOf(err: unknown): { type: string; message: string } {
  if (err instanceof ApplicationFailure) return { type: err.type ?? WebhookFailureType.EffectFailed, message: err.message.slice(0, 300) };
  const code = sqlState(err);
  return { type: WebhookFailureType.EffectFailed, message: code ? `database error ${code}` : `${err instanceof Error ? err.name : typeof err} thrown` };
}

/**
 * The per-webhook run's activity (a webhook handed off by its batch, or a run an operator
 * resets): the same apply as the batch, in a transaction of its own, with heartbeats.
 */
export function createProcessEvent(deps: ActivityDeps) {
  return async function processEvent(input: ProcessWebhookEventInput): Promise<ProcessWebhookEventResult> {
    const run = currentRun();
    const applied = await cancellable(deps.db.transaction((tx) => applyWebhook(deps, tx, input, run)));
    const { outcome, deliveryId, topic, familyCount, skippedCount } = applied;
    if (applied.observed) deps.observe?.processed(applied.observed);
    deps.log.debug({ workspaceId: input.workspaceId, webhookEventId: input.webhookEventId, jobId: input.jobId, outcome }, 'webhook event processed');
    return { deliveryId, status: 'processed', topic, familyCount, skippedCount };
  };
}

/** How long one batch call keeps starting webhooks; the rest go to the next call. */
const BATCH_BUDGET_MS = 2_000;

/**
 * The batch run's local activity: applies the batch's webhooks in order, each in a savepoint
 * of one transaction (one commit, one fsync, per call). A webhook that throws rolls back to
 * its savepoint and is reported `failed` (the workflow hands it to its own run); the others
 * are unaffected. After the time budget it stops starting webhooks and reports the rest
 * `not_attempted`, so a call stays within a few seconds whatever the batch holds.
 */
export function createApplyWebhookBatch(deps: ActivityDeps, opts: { budgetMs?: number } = {}) {
  const budgetMs = opts.budgetMs ?? BATCH_BUDGET_MS;
  return async function applyWebhookBatch(input: ProcessWebhookBatchInput): Promise<ApplyWebhookBatchResult> {
    const run = currentRun();
    const started = Date.now();
    const observed: NonNullable<Applied['observed']>[] = [];
    const outcomes = await deps.db.transaction(async (tx) => {
      await boundStatementTime(tx, { statementMs: 3_000, lockMs: 2_000 });
      const result: WebhookOutcome[] = [];
      for (const job of input.jobs) {
        if (result.length > 0 && Date.now() - started > budgetMs) {
          result.push({ jobId: job.jobId, outcome: 'not_attempted' });
          continue;
        }
        const seen: { topic?: string } = {};
        try {
          const applied = await tx.transaction((sp) => applyWebhook(deps, sp, job, run, seen));
          if (applied.observed) observed.push(applied.observed);
          result.push({ jobId: job.jobId, outcome: applied.outcome });
        } catch (err) {
          const failure = failureOf(err);
          deps.log.warn(
            { workspaceId: job.workspaceId, webhookEventId: job.webhookEventId, jobId: job.jobId, type: failure.type },
            'webhook failed in its batch',
          );
          // The topic labels the search attributes of the run the webhook is handed to.
          result.push({ jobId: job.jobId, outcome: 'failed', ...failure, ...(seen.topic ? { topic: seen.topic } : {}) });
        }
      }
      // A lane may be free now: wake the relay rather than leave it to its poll.
      await notifyOutbox(tx, LANE_FREED);
      return result;
    });
    if (deps.observe) {
      for (const o of outcomes) deps.observe.batchOutcome(o.outcome);
      for (const o of observed) deps.observe.processed(o);
    }
    deps.log.debug({ batchId: input.batchId, size: input.jobs.length, ms: Date.now() - started }, 'webhook batch applied');
    return { outcomes };
  };
}

export interface HandOffInput {
  jobs: (WebhookBatchJob & { type: string; message: string; topic?: string })[];
}

/** Moves failed webhooks out of their batch to their own runs (see handOffWebhookJobs). */
export function createHandOffWebhooks(deps: ActivityDeps) {
  return async function handOffWebhooks(input: HandOffInput): Promise<void> {
    await handOffWebhookJobs(
      deps.db,
      input.jobs.map((j) => ({
        workspaceId: j.workspaceId,
        jobId: j.jobId,
        webhookEventId: j.webhookEventId,
        workflowId: handedOffWorkflowId(j),
        error: `${j.type}: ${j.message}`,
      })),
      deps.clock.now(),
    );
  };
}

export interface RecordFailureInput extends ProcessWebhookEventInput {
  type: string;
  message: string;
}

/** Marks delivery, event and job failed (idempotent; never overrides a processed delivery). */
export function createRecordFailure(deps: ActivityDeps) {
  return async function recordFailure(input: RecordFailureInput): Promise<void> {
    const event = await loadEventForProcessing(deps.db, input.workspaceId, input.webhookEventId);
    const stored = await finishWebhookProcessing(deps.db, input.workspaceId, {
      deliveryId: input.deliveryId,
      webhookEventId: input.webhookEventId,
      jobId: input.jobId,
      topic: event?.topic ?? 'unknown',
      status: 'failed',
      families: [],
      error: `${input.type}: ${input.message}`.slice(0, 500),
      now: deps.clock.now(),
      run: currentRun(),
    });
    if (stored.status === 'failed') deps.observe?.failed();
    deps.log.warn(
      { workspaceId: input.workspaceId, webhookEventId: input.webhookEventId, jobId: input.jobId, deliveryId: stored.id, type: input.type },
      'webhook event failed',
    );
  };
}

/** The webhook pipeline's activities, as its workflow proxies them. */
export function createWebhookActivities(deps: ActivityDeps) {
  return {
    processEvent: createProcessEvent(deps),
    recordFailure: createRecordFailure(deps),
    applyWebhookBatch: createApplyWebhookBatch(deps),
    handOffWebhooks: createHandOffWebhooks(deps),
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
