import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import type { Env } from '@mos/config';
import { scrapeAccess } from './scrape-access';

/** GET /metrics for every process: the registry in Prometheus text format, behind scrapeAccess. */
export function metricsHandler(env: Pick<Env, 'MOS_METRICS_TOKEN' | 'MOS_ENV'>, registry: Registry): RequestHandler {
  return async (req, res, next) => {
    const access = scrapeAccess(env, req.header('authorization'));
    if (access === 'off') return res.status(404).json({ error: 'not_found' });
    if (access === 'unauthenticated') return res.status(401).json({ error: 'unauthenticated' });
    try {
      const text = await registry.metrics();
      res.setHeader('Cache-Control', 'no-store');
      res.type(registry.contentType).send(text);
    } catch (err) {
      next(err);
    }
  };
}
