import { router } from '../trpc';

/** Campaigns: a template to a segment at a time, through the broadcast machinery. */
export const campaignsRouter = router({});
