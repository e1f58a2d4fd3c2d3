import { z } from 'zod';
import { SETTINGS_ROLES } from '@mos/core';
import {
  broadcastResult,
  broadcastView,
  changeBroadcast,
  getBroadcast,
  getMessage,
  getMessageResult,
  listBroadcasts,
  listBroadcastsInput,
  listMessages,
  listMessagesInput,
  messageListView,
  scopeOf,
} from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

/**
 * Operators' view of the send path: messages with their status history, broadcasts with their
 * counts. Reads for any operator; pause, resume and cancel for the settings roles.
 */
const idInput = z.object({ id: z.string().min(1).max(64) });

export const messagesRouter = router({
  list: operatorProcedure
    .input(listMessagesInput.optional())
    .output(messageListView)
    .query(({ ctx, input }) => listMessages(ctx.deps, scopeOf(ctx.actor), listMessagesInput.parse(input ?? {}))),
  get: operatorProcedure
    .input(idInput)
    .output(getMessageResult)
    .query(({ ctx, input }) => getMessage(ctx.deps, scopeOf(ctx.actor), input.id)),
});

const change = (action: 'pause' | 'resume' | 'cancel') =>
  roleProcedure(SETTINGS_ROLES)
    .input(idInput)
    .output(broadcastResult)
    .mutation(({ ctx, input }) => changeBroadcast(ctx.deps, scopeOf(ctx.actor), input.id, action));

export const broadcastsRouter = router({
  list: operatorProcedure
    .input(listBroadcastsInput.optional())
    .output(z.object({ broadcasts: z.array(broadcastView), nextCursor: z.string().nullable() }))
    .query(({ ctx, input }) => listBroadcasts(ctx.deps, scopeOf(ctx.actor), listBroadcastsInput.parse(input ?? {}))),
  get: operatorProcedure
    .input(idInput)
    .output(broadcastResult)
    .query(({ ctx, input }) => getBroadcast(ctx.deps, scopeOf(ctx.actor), input.id)),
  pause: change('pause'),
  resume: change('resume'),
  cancel: change('cancel'),
});
