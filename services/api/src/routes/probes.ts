import { Router } from 'express';
import { buildVersion } from '@mos/config';
import type { AppDeps } from '@mos/app';
import { readiness } from '@mos/app';

/** /health never touches the database; /ready does, and answers 503 with the same shape. */
export function probeRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/health', (_req, res) => {
    res.json({
      ok: true,
      service: 'api',
      buildVersion: buildVersion(),
      environment: deps.env.MOS_ENV,
      timestamp: deps.clock.now().toISOString(),
    });
  });
  r.get('/ready', async (_req, res) => {
    const report = await readiness(deps);
    res.status(report.ready ? 200 : 503).json(report);
  });
  return r;
}
