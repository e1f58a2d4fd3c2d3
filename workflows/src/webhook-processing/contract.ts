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
  /** The batch apply call kept failing as a whole; the webhook was handed to its own run (not a final state). */
  BatchCallFailed = 'BatchCallFailed',
}

export const NON_RETRYABLE_TYPES: string[] = [WebhookFailureType.InvalidJson, WebhookFailureType.InvalidPayload, WebhookFailureType.EventNotFound];

/** Keyword attributes of a per-webhook run, registered on the namespace (infra: `--search-attribute`). */
export const SA_WORKSPACE_ID = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const SA_TOPIC = defineSearchAttributeKey('Topic', SearchAttributeType.KEYWORD);
export const SA_WEBHOOK_EVENT_ID = defineSearchAttributeKey('WebhookEventId', SearchAttributeType.KEYWORD);

/**
 * KeywordList attributes of a batch run: `WebhookEventIds = 'evt_…'` finds the run that
 * processed a webhook. A KeywordList value is capped by the server (2 KB by default on
 * `limit.searchAttributesSizeOfValue`); 50 event ids of 30 characters fit, which is one
 * reason batches stop at MAX_WEBHOOK_BATCH.
 */
export const SA_WEBHOOK_EVENT_IDS = defineSearchAttributeKey('WebhookEventIds', SearchAttributeType.KEYWORD_LIST);
export const SA_WORKSPACE_IDS = defineSearchAttributeKey('WorkspaceIds', SearchAttributeType.KEYWORD_LIST);
export const SA_TOPICS = defineSearchAttributeKey('Topics', SearchAttributeType.KEYWORD_LIST);

/** Every attribute the pipeline sets, with its type name as `temporal operator search-attribute create` takes it. */
export const WEBHOOK_SEARCH_ATTRIBUTES = [SA_WORKSPACE_ID, SA_TOPIC, SA_WEBHOOK_EVENT_ID, SA_WEBHOOK_EVENT_IDS, SA_WORKSPACE_IDS, SA_TOPICS] as const;

/** The most webhooks one batch run carries (see SA_WEBHOOK_EVENT_IDS for the size bound). */
export const MAX_WEBHOOK_BATCH = 50;

/** One claimed webhook job, as a batch run carries it: ids only. */
export type WebhookBatchJob = ProcessWebhookEventInput;

export interface ProcessWebhookBatchInput {
  /** The first job's id, written on every claimed row in the claim's transaction. */
  batchId: string;
  /** In receipt order; webhooks of one conversation are applied in this order. */
  jobs: WebhookBatchJob[];
}

export interface ProcessWebhookBatchResult {
  batchId: string;
  applied: number;
  /** Already applied by an earlier attempt or run: skipped, not repeated. */
  alreadyApplied: number;
  /** Event ids handed to their own `webhook-<evt id>` runs. */
  handedOff: string[];
  /** Local-activity calls it took (a call stops starting new webhooks after its time budget). */
  calls: number;
}

/** What the batch apply did with one webhook. */
export type WebhookOutcome =
  | { jobId: string; outcome: 'applied' | 'already_applied' | 'not_attempted' }
  | { jobId: string; outcome: 'failed'; type: string; message: string; topic?: string };

export interface ApplyWebhookBatchResult {
  outcomes: WebhookOutcome[];
}

/** The per-webhook workflow type (the job type is core's PROCESS_WEBHOOK_EVENT). */
export const WEBHOOK_WORKFLOW_TYPE = 'processWebhookEvent';

/** The batch workflow type: the relay starts one per claimed batch. */
export const WEBHOOK_BATCH_WORKFLOW_TYPE = 'processWebhookBatch';

/** Deterministic, so a batch dispatched twice (a relay crash, the stale-batch sweep) runs once. */
export function webhookBatchWorkflowId(batchId: string): string {
  return `webhook-batch-${batchId}`;
}

/**
 * The per-webhook run a failed webhook is handed to. A replay creates a new `evt_` row with its own job, so the id is
 * unique per job in practice and names what staff search for in the UI.
 */
export function webhookWorkflowId(webhookEventId: string): string {
  return `webhook-${webhookEventId}`;
}

/** The own run of a job handed off from its batch; a job whose payload lacks an event id is named by the job. */
export function handedOffWorkflowId(job: { webhookEventId: string; jobId: string }): string {
  return webhookWorkflowId(job.webhookEventId || job.jobId);
}
