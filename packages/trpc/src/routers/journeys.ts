import { z } from 'zod';
import { SETTINGS_ROLES } from '@mos/core';
import {
  changeJourneyStatus,
  compatMappingIdInput,
  compatMappingView,
  createCompatMapping,
  createCompatMappingInput,
  createJourney,
  createJourneyInput,
  deleteWorkspaceCompatMapping,
  getWorkspaceCompatMapping,
  getWorkspaceJourney,
  journeyIdInput,
  journeyResult,
  journeyRunPage,
  journeyView,
  listCompatMappings,
  listCompatMappingsInput,
  listJourneyRuns,
  listJourneyRunsInput,
  listJourneys,
  scopeOf,
  updateJourneyDefinition,
  updateJourneyInput,
  type JourneyAction,
} from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

const transition = (action: JourneyAction) =>
  roleProcedure(SETTINGS_ROLES)
    .input(journeyIdInput)
    .output(journeyResult)
    .mutation(({ ctx, input }) => changeJourneyStatus(ctx.deps, scopeOf(ctx.actor), input.id, action));

/** Journeys and their runs: reads for any operator, changes for the settings roles (docs/journeys.md). */
export const journeysRouter = router({
  list: operatorProcedure.output(z.object({ journeys: z.array(journeyView) })).query(({ ctx }) => listJourneys(ctx.deps, scopeOf(ctx.actor))),
  get: operatorProcedure
    .input(journeyIdInput)
    .output(journeyResult)
    .query(({ ctx, input }) => getWorkspaceJourney(ctx.deps, scopeOf(ctx.actor), input.id)),
  create: roleProcedure(SETTINGS_ROLES)
    .input(createJourneyInput)
    .output(journeyResult)
    .mutation(({ ctx, input }) => createJourney(ctx.deps, scopeOf(ctx.actor), input)),
  update: roleProcedure(SETTINGS_ROLES)
    .input(updateJourneyInput)
    .output(journeyResult)
    .mutation(({ ctx, input }) => updateJourneyDefinition(ctx.deps, scopeOf(ctx.actor), input)),
  activate: transition('activate'),
  pause: transition('pause'),
  archive: transition('archive'),
  runs: operatorProcedure
    .input(listJourneyRunsInput)
    .output(journeyRunPage)
    .query(({ ctx, input }) => listJourneyRuns(ctx.deps, scopeOf(ctx.actor), input)),
});

/** Legacy trigger paths (organization/flow/trigger, legacy path) to journeys. */
export const compatMappingsRouter = router({
  list: operatorProcedure
    .input(listCompatMappingsInput.optional())
    .output(z.object({ compatMappings: z.array(compatMappingView) }))
    .query(({ ctx, input }) => listCompatMappings(ctx.deps, scopeOf(ctx.actor), input ?? {})),
  get: operatorProcedure
    .input(compatMappingIdInput)
    .output(z.object({ compatMapping: compatMappingView }))
    .query(({ ctx, input }) => getWorkspaceCompatMapping(ctx.deps, scopeOf(ctx.actor), input.id)),
  create: roleProcedure(SETTINGS_ROLES)
    .input(createCompatMappingInput)
    .output(z.object({ compatMapping: compatMappingView }))
    .mutation(({ ctx, input }) => createCompatMapping(ctx.deps, scopeOf(ctx.actor), input)),
  delete: roleProcedure(SETTINGS_ROLES)
    .input(compatMappingIdInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteWorkspaceCompatMapping(ctx.deps, scopeOf(ctx.actor), input.id)),
});
