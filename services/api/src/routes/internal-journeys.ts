import { Router } from 'express';
import type { AppDeps } from '@mos/app';

/** GET /internal/journeys. */
export function internalJourneyRoutes(_deps: AppDeps): Router {
  const r = Router();
  // TODO(issue 14, journeys): list the workspace's journeys.
  r.get('/journeys', (_req, res) => {
    res.json({ journeys: [] });
  });
  return r;
}
