import { Router } from 'express';
import { actorOf } from '@mos/http';
import { listJourneys, scopeOf, type AppDeps } from '@mos/app';

/** GET /internal/journeys: the session workspace's journeys, newest first; the same body as tRPC journeys.list. */
export function internalJourneyRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/journeys', async (req, res) => {
    res.json(await listJourneys(deps, scopeOf(actorOf(req))));
  });
  return r;
}
