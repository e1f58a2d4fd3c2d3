import { z } from 'zod';
import { AppError, seesPersonalData, NORMALIZATION_STATUSES, WEBHOOK_SOURCES, WEBHOOK_TOPICS, replayDedupKey, webhookDedupKey, safeString } from '@mos/core';
import {
  findOutboxJobByDedupKey, getWebhookEvent, getWebhookRejection, listReplaysOf, listWebhookDeliveries, listWebhookEvents,
  listWebhookRejections, type WebhookEventRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toDeliveryView, toRejectionView, toWebhookDetail, toWebhookListItem, type WebhookDetail } from './views';

/**
 * Operator reads of the webhook pipeline, scoped to the caller's workspace. The same
 * functions back GET /internal/* (API app) and the tRPC procedures. Inputs are already
 * validated numbers/enums: the REST layer parses query strings with parseIntParam, tRPC
 * with these zod schemas (same bounds, from LIMITS).
 */

const id = safeString().min(1).max(64);

export const listWebhooksInput = z.object({
  topic: z.enum(WEBHOOK_TOPICS).optional(),
  status: z.enum(NORMALIZATION_STATUSES).optional(),
  source: z.enum(WEBHOOK_SOURCES).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  offset: z.number().int().min(0).default(0),
});
export type ListWebhooksInput = z.input<typeof listWebhooksInput>;

export const pageInput = (max: number, dflt: number) =>
  z.object({ limit: z.number().int().min(1).max(max).default(dflt), offset: z.number().int().min(0).default(0) });

export const listDeliveriesInput = z.object({ limit: z.number().int().min(1).max(100).default(25) });
export const listRejectionsInput = pageInput(200, 50);
export const byIdInput = z.object({ id });

export async function listWebhooks(deps: AppDeps, scope: Scope, input: ListWebhooksInput = {}) {
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

export async function getWebhook(deps: AppDeps, scope: Scope, webhookId: string): Promise<{ webhook: WebhookDetail }> {
  const row = await getWebhookEvent(deps.db, scope.workspaceId, webhookId);
  if (!row) throw new AppError('webhook_not_found');
  const [job, replays] = await Promise.all([jobOf(deps, scope.workspaceId, row), listReplaysOf(deps.db, scope.workspaceId, row.id)]);
  // Raw bodies carry customers' numbers and words: developers and above see them, viewers a redacted copy.
  return { webhook: toWebhookDetail(row, { job, replays }, { redactPersonalData: !seesPersonalData(scope.role) }) };
}

export async function listDeliveries(deps: AppDeps, scope: Scope, input: z.input<typeof listDeliveriesInput> = {}) {
  const { limit } = listDeliveriesInput.parse(input);
  const rows = await listWebhookDeliveries(deps.db, scope.workspaceId, { limit });
  return { webhookDeliveries: rows.map(toDeliveryView) };
}

export async function listRejections(deps: AppDeps, scope: Scope, input: z.input<typeof listRejectionsInput> = {}) {
  const page = listRejectionsInput.parse(input);
  const rows = await listWebhookRejections(deps.db, scope.workspaceId, page);
  return { webhookRejections: rows.map(toRejectionView) };
}

export async function getRejection(deps: AppDeps, scope: Scope, rejectionId: string) {
  const row = await getWebhookRejection(deps.db, scope.workspaceId, rejectionId);
  if (!row) throw new AppError('webhook_rejection_not_found');
  return { webhookRejection: toRejectionView(row) };
}
