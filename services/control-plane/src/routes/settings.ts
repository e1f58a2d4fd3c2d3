import { Router } from 'express';
import { pathParam } from '@mos/http';
import { uncheckedInput, viaProcedure } from '../via-procedure';
import type { AppDeps } from '@mos/app';

/**
 * Members, API keys, secrets and workspace settings over REST, each a tRPC procedure
 * underneath. Lists answer the procedure's body as it is (`{members}`, `{apiKeys}`, `{secrets}`);
 * single records are wrapped in the spec's singular key.
 */
export function settingsRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get(
    '/me',
    viaProcedure(deps, (c) => c.auth.me()),
  );

  r.get(
    '/members',
    viaProcedure(deps, (c) => c.members.list()),
  );
  r.post(
    '/members',
    viaProcedure(deps, async (c, req) => ({ member: await c.members.add(req.body) }), { status: 201 }),
  );
  r.patch(
    '/members/:id',
    viaProcedure(deps, async (c, req) => ({ member: await c.members.setRole({ ...req.body, id: pathParam(req.params.id) }) })),
  );
  r.delete(
    '/members/:id',
    viaProcedure(deps, (c, req) => c.members.remove({ id: pathParam(req.params.id) })),
  );

  r.get(
    '/api-keys',
    viaProcedure(deps, (c) => c.apiKeys.list()),
  );
  r.post(
    '/api-keys',
    viaProcedure(deps, async (c, req) => ({ apiKey: await c.apiKeys.create(req.body) }), { status: 201 }),
  );
  r.delete(
    '/api-keys/:id',
    viaProcedure(deps, async (c, req) => ({ apiKey: await c.apiKeys.revoke({ id: pathParam(req.params.id) }) })),
  );

  r.get(
    '/secrets',
    viaProcedure(deps, (c) => c.secrets.list()),
  );
  r.put(
    '/secrets/:name',
    viaProcedure(deps, async (c, req) => ({ secret: await c.secrets.set(uncheckedInput({ name: pathParam(req.params.name), value: req.body?.value })) })),
  );
  r.delete(
    '/secrets/:name',
    viaProcedure(deps, (c, req) => c.secrets.remove(uncheckedInput({ name: pathParam(req.params.name) }))),
  );

  r.get(
    '/workspace',
    viaProcedure(deps, async (c) => ({ workspace: await c.workspace.get() })),
  );
  r.patch(
    '/workspace',
    viaProcedure(deps, async (c, req) => ({ workspace: await c.workspace.update(req.body) })),
  );
  return r;
}
