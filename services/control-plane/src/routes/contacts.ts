import { Router } from 'express';
import { pathParam } from '@mos/http';
import { uncheckedInput, viaProcedure } from '../via-procedure';
import type { AppDeps } from '@mos/app';

/** GDPR export/erasure and the operator assistant over REST, each a tRPC procedure underneath. */
export function contactRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get(
    '/contacts/:id/gdpr',
    viaProcedure(deps, (c, req) => c.contacts.gdprExport({ id: pathParam(req.params.id) })),
  );
  r.delete(
    '/contacts/:id/gdpr',
    viaProcedure(deps, (c, req) => c.contacts.gdprErase({ id: pathParam(req.params.id) })),
  );
  r.post(
    '/ai-assistant',
    viaProcedure(deps, (c, req) => c.assistant.ask(uncheckedInput({ question: req.body?.question }))),
  );
  return r;
}
