import { SETTINGS_ROLES } from '@mos/core';
import {
  activateCampaign,
  archiveCampaign,
  campaignIdInput,
  campaignListView,
  campaignResult,
  changeCampaign,
  createCampaign,
  createCampaignInput,
  getCampaign,
  listCampaigns,
  listCampaignsInput,
  scopeOf,
  updateCampaign,
  updateCampaignInput,
} from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

/**
 * Campaigns: a template to a segment at a time, through the broadcast machinery. Reads for any
 * operator (the same body as GET /internal/campaigns); changes for the settings roles.
 */
const mutation = roleProcedure(SETTINGS_ROLES);
const change = (action: 'pause' | 'resume' | 'cancel') =>
  mutation
    .input(campaignIdInput)
    .output(campaignResult)
    .mutation(({ ctx, input }) => changeCampaign(ctx.deps, scopeOf(ctx.actor), input.id, action));

export const campaignsRouter = router({
  list: operatorProcedure
    .input(listCampaignsInput.optional())
    .output(campaignListView)
    .query(({ ctx, input }) => listCampaigns(ctx.deps, scopeOf(ctx.actor), listCampaignsInput.parse(input ?? {}))),
  get: operatorProcedure
    .input(campaignIdInput)
    .output(campaignResult)
    .query(({ ctx, input }) => getCampaign(ctx.deps, scopeOf(ctx.actor), input.id)),
  create: mutation
    .input(createCampaignInput)
    .output(campaignResult)
    .mutation(({ ctx, input }) => createCampaign(ctx.deps, scopeOf(ctx.actor), input)),
  update: mutation
    .input(updateCampaignInput)
    .output(campaignResult)
    .mutation(({ ctx, input }) => updateCampaign(ctx.deps, scopeOf(ctx.actor), input)),
  activate: mutation
    .input(campaignIdInput)
    .output(campaignResult)
    .mutation(({ ctx, input }) => activateCampaign(ctx.deps, scopeOf(ctx.actor), input.id)),
  pause: change('pause'),
  resume: change('resume'),
  cancel: change('cancel'),
  archive: mutation
    .input(campaignIdInput)
    .output(campaignResult)
    .mutation(({ ctx, input }) => archiveCampaign(ctx.deps, scopeOf(ctx.actor), input.id)),
});
