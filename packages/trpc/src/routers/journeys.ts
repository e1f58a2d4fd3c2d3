import { router } from '../trpc';

/** Journeys and their runs. */
export const journeysRouter = router({});

/** Legacy trigger paths (organization/flow/trigger, legacy path) to journeys. */
export const compatMappingsRouter = router({});
