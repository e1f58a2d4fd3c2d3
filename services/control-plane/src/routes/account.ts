import { Router, type Request } from 'express';
import { parseIntParam } from '@mos/core';
import { viaProcedure } from '@mos/http';
import { ACCOUNT_EVENT_LIMITS, parseFieldParam, type AppDeps } from '@mos/trpc';

/** Query strings to the procedure's typed input; a bad value is 400 invalid_query naming it. */
const eventsQuery = (req: Request) => ({
  limit: parseIntParam(req.query.limit, ACCOUNT_EVENT_LIMITS.limit),
  offset: parseIntParam(req.query.offset, ACCOUNT_EVENT_LIMITS.offset),
  field: parseFieldParam(req.query.field),
});

/** /api/account/*: thin adapters over the `account.*` procedures (docs/account.md). */
export function accountRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/account/events', viaProcedure(deps, (c, req) => c.account.events(eventsQuery(req))));
  r.get('/account/limits', viaProcedure(deps, (c) => c.account.limits()));
  return r;
}
