import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The webhook-processing contract: names shared by its workflow, its activities and the
 * outbox relay that starts it. Imported into the deterministic workflow sandbox and by
 * processes that must not load activity code, so it holds constants and types only and
 * imports nothing but `@temporalio/common`.
 */

/** Workflow inputs carry ids only: bodies stay in PostgreSQL and out of Temporal history. */
export interface ProcessWebhookEventInput {
  workspaceId: string;
  webhookEventId: string;
  jobId: string;
  /** The `del_` id the delivery row will get, allocated by the relay so the memo can name it. */
  deliveryId: string;
}

export interface ProcessWebhookEventResult {
  deliveryId: string;
  status: 'processed';
  topic: string;
  /** How many families were applied; family contents never enter history (personal data). */
  familyCount: number;
  skippedCount: number;
}

/**
 * Why a run failed for good. One string enum: the activity throws
 * `ApplicationFailure.create({type, nonRetryable: true})` with these, the workflow copies the
 * type to its own failure, and the delivery row's `error` starts with it.
 */
export enum WebhookFailureType {
  /** The stored body is not JSON (ingress topic `invalid_json`, or it fails to parse here). */
  InvalidJson = 'InvalidJson',
  /** JSON, but not a provider envelope (ingress topic `invalid_payload`). */
  InvalidPayload = 'InvalidPayload',
  /** The webhook_events row the job points at does not exist (in this workspace). */
  EventNotFound = 'EventNotFound',
  /** An effect threw a non-retryable failure of its own (its type is in the message). */
  EffectRejected = 'EffectRejected',
  /** An effect threw anything else (retried); the message carries the family and the SQLSTATE, never the driver's text. */
  EffectFailed = 'EffectFailed',
  /** A transient error outlived the activity's retry policy. */
  RetriesExhausted = 'RetriesExhausted',
}

export const NON_RETRYABLE_TYPES: string[] = [WebhookFailureType.InvalidJson, WebhookFailureType.InvalidPayload, WebhookFailureType.EventNotFound];

/** Keyword attributes registered on the Temporal namespace (infra: `--search-attribute`). */
export const SA_WORKSPACE_ID = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const SA_TOPIC = defineSearchAttributeKey('Topic', SearchAttributeType.KEYWORD);
export const SA_WEBHOOK_EVENT_ID = defineSearchAttributeKey('WebhookEventId', SearchAttributeType.KEYWORD);

/** The workflow type name (the job type is core's PROCESS_WEBHOOK_EVENT). */
export const WEBHOOK_WORKFLOW_TYPE = 'processWebhookEvent';

/**
 * One workflow per event: a replay creates a new `evt_` row with its own job, so the id is
 * unique per job in practice and names what staff search for in the UI.
 */
export function webhookWorkflowId(webhookEventId: string): string {
  return `webhook-${webhookEventId}`;
}
