import { z } from 'zod';
import {
  AppError,
  COMPAT_SOURCE,
  COMPAT_TOPICS,
  enumParam,
  LIMITS,
  NORMALIZATION_STATUSES,
  pageQuery,
  pageSchema,
  replayDedupKey,
  safeString,
  seesPersonalData,
  WEBHOOK_SOURCES,
  WEBHOOK_TOPICS,
  webhookDedupKey,
} from '@mos/core';
import { findOutboxJobByDedupKey, getWebhookEvent, listReplaysOf, listWebhookEvents, type WebhookEventRow } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toWebhookDetail, toWebhookListItem, type WebhookDetail, type WebhookListItem } from './views';

/**
 * Stored webhooks (`evt_`): every delivery the ingress received, as received (spec: "Webhook
 * delivery record", GET /internal/webhooks; tRPC `webhooks.*`). Replays are in replay.ts.
 * Scoped to the caller's workspace.
 */

/** Provider paths and the legacy-compatible calls stored beside them (docs/compat.md). */
const LISTED_SOURCES = [...WEBHOOK_SOURCES, COMPAT_SOURCE] as const;
const LISTED_TOPICS = [...WEBHOOK_TOPICS, ...COMPAT_TOPICS] as const;

export const listWebhooksInput = z.object({
  topic: z.enum(LISTED_TOPICS).optional(),
  status: z.enum(NORMALIZATION_STATUSES).optional(),
  source: z.enum(LISTED_SOURCES).optional(),
  ...pageSchema(LIMITS.webhooks).shape,
});
export type ListWebhooksInput = z.input<typeof listWebhooksInput>;

/** The same input from a query string (GET /internal/webhooks): each bad value is 400 invalid_query naming it. */
export function webhooksQuery(query: Readonly<Record<string, unknown>>): ListWebhooksInput {
  return {
    topic: enumParam(query.topic, 'topic', LISTED_TOPICS),
    status: enumParam(query.status, 'status', NORMALIZATION_STATUSES),
    source: enumParam(query.source, 'source', LISTED_SOURCES),
    ...pageQuery(query, LIMITS.webhooks),
  };
}

export const webhookIdInput = z.object({ id: safeString().min(1).max(64) });

/** Newest first, optionally filtered by topic, normalization status and source. */
export async function listWorkspaceWebhooks(deps: AppDeps, scope: Scope, input: ListWebhooksInput = {}): Promise<{ webhooks: WebhookListItem[] }> {
  const f = listWebhooksInput.parse(input);
  const rows = await listWebhookEvents(deps.db, scope.workspaceId, f);
  return { webhooks: rows.map(toWebhookListItem) };
}

/** The job that processes an event: its own (by dedup key), or the first delivery's for a duplicate. */
async function jobOf(deps: AppDeps, workspaceId: string, r: WebhookEventRow) {
  if (!r.signatureValid) return undefined;
  const key = r.replayOfId ? replayDedupKey(r.id) : webhookDedupKey({ source: r.source, deliveryId: r.deliveryId, webhookEventId: r.id });
  const job = await findOutboxJobByDedupKey(deps.db, workspaceId, key);
  if (!job) return undefined;
  const owner = job.payload.webhookEventId;
  return owner === r.id || owner === r.duplicateOfId ? job : undefined;
}

/** One stored webhook with its processing job, its Temporal run and replays; 404 webhook_not_found. */
export async function getWorkspaceWebhook(deps: AppDeps, scope: Scope, webhookId: string): Promise<{ webhook: WebhookDetail }> {
  const row = await getWebhookEvent(deps.db, scope.workspaceId, webhookId);
  if (!row) throw new AppError('webhook_not_found');
  const [job, replays] = await Promise.all([jobOf(deps, scope.workspaceId, row), listReplaysOf(deps.db, scope.workspaceId, row.id)]);
  // Raw bodies carry customers' numbers and words: developers and above see them, viewers a redacted copy.
  const temporalUi = { baseUrl: deps.env.TEMPORAL_UI_URL, namespace: deps.env.TEMPORAL_NAMESPACE };
  return { webhook: toWebhookDetail(row, { job, replays, temporalUi }, { redactPersonalData: !seesPersonalData(scope.role) }) };
}
