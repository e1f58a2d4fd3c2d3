import { z } from 'zod';
import { SETTINGS_ROLES } from '@mos/core';
import { scopeOf } from '@mos/app';
import { replayDelivery, replayWebhook } from '@mos/app';
import { deliveryView, rejectionView, webhookDetail, webhookListItem } from '@mos/app';
import {
  byIdInput, getRejection, getWebhook, listDeliveries, listDeliveriesInput, listRejections, listRejectionsInput, listWebhooks,
  listWebhooksInput,
} from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

/**
 * Twins of the API app's /internal webhook routes: reads for any operator; replays (which
 * re-run processing) for the settings roles, like every other write in the workspace.
 */
export const webhooksRouter = router({
  list: operatorProcedure
    .input(listWebhooksInput.optional())
    .output(z.object({ webhooks: z.array(webhookListItem) }))
    .query(({ ctx, input }) => listWebhooks(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  get: operatorProcedure
    .input(byIdInput)
    .output(z.object({ webhook: webhookDetail }))
    .query(({ ctx, input }) => getWebhook(ctx.deps, scopeOf(ctx.actor), input.id)),
  replay: roleProcedure(SETTINGS_ROLES)
    .input(byIdInput)
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

export const webhookEventsRouter = router({
  list: operatorProcedure
    .input(listDeliveriesInput.optional())
    .output(z.object({ webhookDeliveries: z.array(deliveryView) }))
    .query(({ ctx, input }) => listDeliveries(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  replay: roleProcedure(SETTINGS_ROLES)
    .input(byIdInput)
    .output(
      z.object({
        accepted: z.literal(true),
        delivery: z.object({ id: z.string(), status: z.literal('pending') }),
        job: z.object({ id: z.string(), status: z.literal('pending') }),
      }),
    )
    .mutation(({ ctx, input }) => replayDelivery(ctx.deps, scopeOf(ctx.actor), { id: input.id, requestId: ctx.requestId })),
});

export const webhookRejectionsRouter = router({
  list: operatorProcedure
    .input(listRejectionsInput.optional())
    .output(z.object({ webhookRejections: z.array(rejectionView) }))
    .query(({ ctx, input }) => listRejections(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  get: operatorProcedure
    .input(byIdInput)
    .output(z.object({ webhookRejection: rejectionView }))
    .query(({ ctx, input }) => getRejection(ctx.deps, scopeOf(ctx.actor), input.id)),
});
