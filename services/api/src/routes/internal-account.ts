import { Router } from 'express';
import { parseIntParam } from '@mos/core';
import { actorOf } from '@mos/http';
import { ACCOUNT_EVENT_LIMITS, listWorkspaceAccountEvents, listWorkspaceChannelLimits, parseFieldParam, scopeOf, type AppDeps } from '@mos/trpc';

/**
 * GET /internal/account-events (limit 1..200 (50), offset >= 0 (0), field = one provider
 * field) and GET /internal/account-limits: mounted after requireSession; the session's
 * workspace only; the same service functions as tRPC `account.*` (docs/account.md).
 */
export function internalAccountRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/account-events', async (req, res) => {
    const input = {
      limit: parseIntParam(req.query.limit, ACCOUNT_EVENT_LIMITS.limit),
      offset: parseIntParam(req.query.offset, ACCOUNT_EVENT_LIMITS.offset),
      field: parseFieldParam(req.query.field),
    };
    res.json(await listWorkspaceAccountEvents(deps, scopeOf(actorOf(req)), input));
  });
  r.get('/account-limits', async (req, res) => {
    res.json(await listWorkspaceChannelLimits(deps, scopeOf(actorOf(req))));
  });
  return r;
}
