import { Router } from 'express';
import { viaProcedure } from '@mos/http';
import type { AppDeps } from '@mos/trpc';

const param = (v: string | string[] | undefined): string => (Array.isArray(v) ? v[0] ?? '' : v ?? '');
/** Request input is unvalidated by nature; the procedure's zod .input() is what checks it. */
const unchecked = <T>(v: unknown): T => v as T;

/** GDPR export/erasure and the operator assistant over REST, each a tRPC procedure underneath. */
export function contactRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/contacts/:id/gdpr', viaProcedure(deps, (c, req) => c.contacts.gdprExport({ id: param(req.params.id) })));
  r.delete('/contacts/:id/gdpr', viaProcedure(deps, (c, req) => c.contacts.gdprErase({ id: param(req.params.id) })));
  r.post('/ai-assistant', viaProcedure(deps, (c, req) => c.assistant.ask(unchecked({ question: req.body?.question }))));
  return r;
}
