import { Router } from 'express';
import { pathParam } from '@mos/http';
import { uncheckedInput, viaProcedure } from '../via-procedure';
import type { AppDeps } from '@mos/app';

const body = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** /api/templates: thin adapters over the `templates.*` procedures (one implementation). */
export function templateRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get(
    '/templates',
    viaProcedure(deps, (c) => c.templates.list()),
  );
  r.post(
    '/templates',
    viaProcedure(deps, async (c, req) => ({ template: await c.templates.create(uncheckedInput(req.body ?? {})) })),
  );
  // Literal paths before /:id so "seed-starter-pack" is never read as an id.
  r.post(
    '/templates/seed-starter-pack',
    viaProcedure(deps, (c) => c.templates.seedStarterPack()),
  );
  r.post(
    '/templates/validate',
    viaProcedure(deps, (c, req) => c.templates.validate(uncheckedInput(req.body ?? {}))),
  );
  r.get(
    '/templates/:id',
    viaProcedure(deps, async (c, req) => ({ template: await c.templates.get({ id: pathParam(req.params.id) }) })),
  );
  r.put(
    '/templates/:id',
    viaProcedure(deps, async (c, req) => ({ template: await c.templates.update(uncheckedInput({ ...body(req.body), id: pathParam(req.params.id) })) })),
  );
  r.delete(
    '/templates/:id',
    viaProcedure(deps, (c, req) => c.templates.delete({ id: pathParam(req.params.id) })),
  );
  r.post(
    '/templates/:id/submit',
    viaProcedure(deps, (c, req) => c.templates.submit({ id: pathParam(req.params.id) })),
  );
  r.post(
    '/templates/:id/revise',
    viaProcedure(deps, async (c, req) => ({ template: await c.templates.revise({ id: pathParam(req.params.id) }) })),
  );
  return r;
}
