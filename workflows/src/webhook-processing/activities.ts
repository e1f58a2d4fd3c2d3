import { Context } from '@temporalio/activity';
import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { escapeNul, normalizeEnvelope, parseProviderEnvelope, summarizeEvent, type Clock, type NormalizedEvent } from '@mos/core';
import { findDeliveryForJob, finishWebhookProcessing, loadEventForProcessing, type Db } from '@mos/db';
import type { Logger } from '@mos/config';
import { WebhookFailureType, type ProcessWebhookEventInput, type ProcessWebhookEventResult } from './contract';
import { applyFamily, type FamilyEffects } from './effects/family-effects';

export interface ActivityDeps {
  db: Db;
  log: Logger;
  clock: Clock;
  effects: FamilyEffects;
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
function withoutPersonalData(err: unknown, family: NormalizedEvent['family']): unknown {
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

/**
 * The whole job in one activity: load, decode, normalize, apply effects, record. Idempotent:
 * a job whose delivery is already processed returns that delivery without re-applying
 * effects, and effects themselves are idempotent for the window between applying them and
 * recording the delivery.
 */
export function createProcessEvent(deps: ActivityDeps) {
  return async function processEvent(input: ProcessWebhookEventInput): Promise<ProcessWebhookEventResult> {
    const { workspaceId, webhookEventId, jobId } = input;
    const done = await findDeliveryForJob(deps.db, workspaceId, jobId);
    if (done?.status === 'processed') {
      // Finish again in case the first attempt died between recording and returning.
      await finishWebhookProcessing(deps.db, workspaceId, {
        deliveryId: done.id,
        webhookEventId,
        jobId,
        topic: done.topic,
        status: 'processed',
        families: done.families,
        error: null,
        now: done.processedAt ?? deps.clock.now(),
      });
      return { deliveryId: done.id, status: 'processed', topic: done.topic, familyCount: done.families.length, skippedCount: 0 };
    }

    const event = await loadEventForProcessing(deps.db, workspaceId, webhookEventId);
    if (!event) throw permanent(WebhookFailureType.EventNotFound, `webhook event ${webhookEventId} not found in workspace`);
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
    await cancellable(
      (async () => {
        for (const family of families) {
          try {
            await applyFamily(deps.effects, workspaceId, family);
          } catch (err) {
            throw withoutPersonalData(err, family.family);
          }
        }
      })(),
    );

    const delivery = await finishWebhookProcessing(deps.db, workspaceId, {
      deliveryId: input.deliveryId,
      webhookEventId,
      jobId,
      topic,
      status: 'processed',
      families: families.map(summarizeEvent),
      error: null,
      now: deps.clock.now(),
      reparsed,
    });
    deps.log.debug({ workspaceId, webhookEventId, jobId, deliveryId: delivery.id, families: normalized.events.length }, 'webhook event processed');
    return {
      deliveryId: delivery.id,
      status: 'processed',
      topic,
      familyCount: normalized.events.length,
      skippedCount: normalized.skipped.length,
    };
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
    });
    deps.log.warn(
      { workspaceId: input.workspaceId, webhookEventId: input.webhookEventId, jobId: input.jobId, deliveryId: stored.id, type: input.type },
      'webhook event failed',
    );
  };
}

/** The webhook pipeline's activities, as its workflow proxies them. */
export function createWebhookActivities(deps: ActivityDeps) {
  return { processEvent: createProcessEvent(deps), recordFailure: createRecordFailure(deps) };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
