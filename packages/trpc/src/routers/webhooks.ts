import { z } from 'zod';
import { SETTINGS_ROLES } from '@mos/core';
import {
  getWorkspaceWebhook,
  getWorkspaceWebhookRejection,
  listWebhookDeliveriesInput,
  listWebhookRejectionsInput,
  listWebhooksInput,
  listWorkspaceWebhookDeliveries,
  listWorkspaceWebhookRejections,
  listWorkspaceWebhooks,
  replayWebhook,
  replayWebhookDelivery,
  scopeOf,
  webhookDeliveryIdInput,
  webhookDeliveryView,
  webhookDetail,
  webhookIdInput,
  webhookListItem,
  webhookRejectionIdInput,
  webhookRejectionView,
} from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

/**
 * Twins of the API app's /internal webhook routes, one router per spec resource: reads for
 * any operator; replays (which re-run processing) for the settings roles, like every other
 * write in the workspace.
 */

/** Stored webhooks (`evt_`): GET /internal/webhooks. */
export const webhooksRouter = router({
  list: operatorProcedure
    .input(listWebhooksInput.optional())
    .output(z.object({ webhooks: z.array(webhookListItem) }))
    .query(({ ctx, input }) => listWorkspaceWebhooks(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  get: operatorProcedure
    .input(webhookIdInput)
    .output(z.object({ webhook: webhookDetail }))
    .query(({ ctx, input }) => getWorkspaceWebhook(ctx.deps, scopeOf(ctx.actor), input.id)),
  replay: roleProcedure(SETTINGS_ROLES)
    .input(webhookIdInput)
    .output(
      z.object({
        accepted: z.literal(true),
        replayedFromId: z.string(),
        webhookEvent: z.object({ id: z.string(), source: z.string(), topic: z.string(), receivedAt: z.string() }),
        outboxJob: z.object({ id: z.string(), jobType: z.string(), status: z.literal('pending') }),
      }),
    )
    .mutation(({ ctx, input }) => replayWebhook(ctx.deps, scopeOf(ctx.actor), { id: input.id, requestId: ctx.requestId })),
});

/** Webhook deliveries (`del_`, the normalized processing records): GET /internal/webhook-events. */
export const webhookDeliveriesRouter = router({
  list: operatorProcedure
    .input(listWebhookDeliveriesInput.optional())
    .output(z.object({ webhookDeliveries: z.array(webhookDeliveryView) }))
    .query(({ ctx, input }) => listWorkspaceWebhookDeliveries(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  replay: roleProcedure(SETTINGS_ROLES)
    .input(webhookDeliveryIdInput)
    .output(
      z.object({
        accepted: z.literal(true),
        delivery: z.object({ id: z.string(), status: z.literal('pending') }),
        job: z.object({ id: z.string(), status: z.literal('pending') }),
      }),
    )
    .mutation(({ ctx, input }) => replayWebhookDelivery(ctx.deps, scopeOf(ctx.actor), { id: input.id, requestId: ctx.requestId })),
});

/** Webhook rejections (`rej_`): GET /internal/webhook-rejections. */
export const webhookRejectionsRouter = router({
  list: operatorProcedure
    .input(listWebhookRejectionsInput.optional())
    .output(z.object({ webhookRejections: z.array(webhookRejectionView) }))
    .query(({ ctx, input }) => listWorkspaceWebhookRejections(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  get: operatorProcedure
    .input(webhookRejectionIdInput)
    .output(z.object({ webhookRejection: webhookRejectionView }))
    .query(({ ctx, input }) => getWorkspaceWebhookRejection(ctx.deps, scopeOf(ctx.actor), input.id)),
});
