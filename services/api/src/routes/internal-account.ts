import { Router } from 'express';
import { actorOf } from '@mos/http';
import { accountEventsQuery, listWorkspaceAccountEvents, listWorkspaceChannelLimits, scopeOf, type AppDeps } from '@mos/app';

/**
 * GET /internal/account-events (limit 1..200 (50), offset >= 0 (0), field = one of
 * ACCOUNT_EVENT_FIELDS) and GET /internal/account-limits: mounted after requireSession; the session's
 * workspace only; the same service functions as tRPC `account.*` (docs/account.md).
 */
export function internalAccountRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/account-events', async (req, res) => {
    res.json(await listWorkspaceAccountEvents(deps, scopeOf(actorOf(req)), accountEventsQuery(req.query)));
  });
  r.get('/account-limits', async (req, res) => {
    res.json(await listWorkspaceChannelLimits(deps, scopeOf(actorOf(req))));
  });
  return r;
}
