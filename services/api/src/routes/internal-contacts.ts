import { Router } from 'express';
import { LIMITS, pageQuery } from '@mos/core';
import { actorOf } from '@mos/http';
import { listWorkspaceContacts, scopeOf, type AppDeps } from '@mos/app';

/** GET /internal/contacts: the session's workspace only; page bounds LIMITS.contacts. */
export function internalContactRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/contacts', async (req, res) => {
    res.json(await listWorkspaceContacts(deps, scopeOf(actorOf(req)), pageQuery(req.query, LIMITS.contacts)));
  });
  return r;
}
