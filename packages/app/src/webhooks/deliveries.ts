import { z } from 'zod';
import { LIMITS, pageSchema, safeString } from '@mos/core';
import { listWebhookDeliveries } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toWebhookDeliveryView, type WebhookDeliveryView } from './views';

/**
 * Webhook deliveries (`del_`): one row per processing of a stored webhook, written by the
 * worker (spec: "Normalized webhook delivery", GET /internal/webhook-events; tRPC
 * `webhookDeliveries.*`). Replays are in replay.ts. Scoped to the caller's workspace.
 */

export const listWebhookDeliveriesInput = pageSchema(LIMITS.webhookDeliveries);

export const webhookDeliveryIdInput = z.object({ id: safeString().min(1).max(64) });

/** Newest first. */
export async function listWorkspaceWebhookDeliveries(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listWebhookDeliveriesInput> = {},
): Promise<{ webhookDeliveries: WebhookDeliveryView[] }> {
  const { limit } = listWebhookDeliveriesInput.parse(input);
  const rows = await listWebhookDeliveries(deps.db, scope.workspaceId, { limit });
  return { webhookDeliveries: rows.map(toWebhookDeliveryView) };
}
