import { z } from 'zod';
import { accountEventView, channelLimitView, listAccountEventsInput, listWorkspaceAccountEvents, listWorkspaceChannelLimits } from '@mos/app';
import { scopeOf } from '@mos/app';
import { operatorProcedure, router } from '../trpc';

/**
 * Twins of GET /internal/account-events and /internal/account-limits: reads for any operator
 * (viewers get `security` values redacted; docs/account.md).
 */
export const accountRouter = router({
  events: operatorProcedure
    .input(listAccountEventsInput.optional())
    .output(z.object({ accountEvents: z.array(accountEventView) }))
    .query(({ ctx, input }) => listWorkspaceAccountEvents(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  limits: operatorProcedure
    .output(z.object({ channelLimits: z.array(channelLimitView) }))
    .query(({ ctx }) => listWorkspaceChannelLimits(ctx.deps, scopeOf(ctx.actor))),
});
