import { createBroadcastActivities, type BroadcastActivityDeps } from './broadcasts/activities';
import { createSendGovernorActivities, type SendGovernorDeps } from './send-governor/activities';

export type SendingActivityDeps = SendGovernorDeps & BroadcastActivityDeps;

/** The send path's activities (governor slices and broadcast steps); the worker registers them beside the others. */
export function createSendingActivities(deps: SendingActivityDeps) {
  return { ...createSendGovernorActivities(deps), ...createBroadcastActivities(deps) };
}
