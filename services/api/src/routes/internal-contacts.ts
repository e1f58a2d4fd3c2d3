import { Router } from 'express';
import { LIMITS, parseIntParam } from '@mos/core';
import { actorOf } from '@mos/http';
import { listContactsPage, scopeOf, type AppDeps } from '@mos/app';

/** GET /internal/contacts: the session's workspace only; limit 1..200 (50), offset >= 0 (0). */
export function internalContactRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/contacts', async (req, res) => {
    const limit = parseIntParam(req.query.limit, LIMITS.contacts.limit);
    const offset = parseIntParam(req.query.offset, LIMITS.contacts.offset);
    res.json(await listContactsPage(deps, scopeOf(actorOf(req)), { limit, offset }));
  });
  return r;
}
