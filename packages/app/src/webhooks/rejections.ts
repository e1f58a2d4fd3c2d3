import { z } from 'zod';
import { AppError, LIMITS, pageSchema, safeString } from '@mos/core';
import { getWebhookRejection, listWebhookRejections } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toWebhookRejectionView, type WebhookRejectionView } from './views';

/**
 * Webhook rejections (`rej_`): stored webhooks refused before processing (bad signature, no
 * secret, unparseable body) (spec: GET /internal/webhook-rejections; tRPC `webhookRejections.*`).
 * Scoped to the caller's workspace.
 */

export const listWebhookRejectionsInput = pageSchema(LIMITS.webhookRejections);

export const webhookRejectionIdInput = z.object({ id: safeString().min(1).max(64) });

/** Newest first. */
export async function listWorkspaceWebhookRejections(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listWebhookRejectionsInput> = {},
): Promise<{ webhookRejections: WebhookRejectionView[] }> {
  const page = listWebhookRejectionsInput.parse(input);
  const rows = await listWebhookRejections(deps.db, scope.workspaceId, page);
  return { webhookRejections: rows.map(toWebhookRejectionView) };
}

/** One rejection; 404 webhook_rejection_not_found. */
export async function getWorkspaceWebhookRejection(deps: AppDeps, scope: Scope, rejectionId: string): Promise<{ webhookRejection: WebhookRejectionView }> {
  const row = await getWebhookRejection(deps.db, scope.workspaceId, rejectionId);
  if (!row) throw new AppError('webhook_rejection_not_found');
  return { webhookRejection: toWebhookRejectionView(row) };
}
