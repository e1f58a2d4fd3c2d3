import { Router } from 'express';
import { viaProcedure } from '@mos/http';
import type { AppDeps } from '@mos/trpc';

const param = (v: string | string[] | undefined): string => (Array.isArray(v) ? v[0] ?? '' : v ?? '');
/** Request input is unvalidated by nature; the procedure's zod .input() is what checks it. */
const unchecked = <T>(v: unknown): T => v as T;

/** Members, API keys, secrets and workspace settings over REST, each a tRPC procedure underneath. */
export function settingsRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/me', viaProcedure(deps, (c) => c.auth.me()));

  r.get('/members', viaProcedure(deps, async (c) => ({ members: await c.members.list() })));
  r.post('/members', viaProcedure(deps, async (c, req) => ({ member: await c.members.add(req.body) }), { status: 201 }));
  r.patch('/members/:id', viaProcedure(deps, async (c, req) => ({ member: await c.members.setRole({ ...req.body, id: param(req.params.id) }) })));
  r.delete('/members/:id', viaProcedure(deps, (c, req) => c.members.remove({ id: param(req.params.id) })));

  r.get('/api-keys', viaProcedure(deps, async (c) => ({ apiKeys: await c.apiKeys.list() })));
  r.post('/api-keys', viaProcedure(deps, async (c, req) => ({ apiKey: await c.apiKeys.create(req.body) }), { status: 201 }));
  r.delete('/api-keys/:id', viaProcedure(deps, async (c, req) => ({ apiKey: await c.apiKeys.revoke({ id: param(req.params.id) }) })));

  r.get('/secrets', viaProcedure(deps, async (c) => ({ secrets: await c.secrets.list() })));
  r.put('/secrets/:name', viaProcedure(deps, async (c, req) => ({ secret: await c.secrets.set(unchecked({ name: param(req.params.name), value: req.body?.value })) })));
  r.delete('/secrets/:name', viaProcedure(deps, (c, req) => c.secrets.remove(unchecked({ name: param(req.params.name) }))));

  r.get('/workspace', viaProcedure(deps, async (c) => ({ workspace: await c.workspace.get() })));
  r.patch('/workspace', viaProcedure(deps, async (c, req) => ({ workspace: await c.workspace.update(req.body) })));
  return r;
}
