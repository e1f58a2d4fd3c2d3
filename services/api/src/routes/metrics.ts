import { Router } from 'express';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { constantTimeEqual } from '@mos/core';
import type { AppDeps, IngressCounter, IngressMetrics } from '@mos/app';

/**
 * GET /metrics: process-wide figures in Prometheus text format (prom-client, the standard
 * Node exporter), for the platform's scraper, never a tenant: it needs the bearer
 * MOS_METRICS_TOKEN when one is set, and without one it is off in production (404) and open
 * elsewhere (the apps listen on 127.0.0.1 by default). No label names a workspace.
 */
export function metricsRoutes(deps: AppDeps, ingress: IngressMetrics): Router {
  const r = Router();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mos_api_' });
  new Counter({
    name: 'mos_webhook_ingress_requests_total',
    help: 'Provider webhook ingress requests of this process, by outcome (received counts every arrival).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      // Mirrors the in-memory counters at scrape time: they only grow, so this stays a counter.
      this.reset();
      const snap = ingress.snapshot();
      for (const outcome of Object.keys(snap) as (IngressCounter | 'since')[]) {
        if (outcome !== 'since') this.inc({ outcome }, snap[outcome]);
      }
    },
  });

  r.get('/metrics', async (req, res) => {
    const token = deps.env.MOS_METRICS_TOKEN;
    if (!token && deps.env.MOS_ENV === 'production') return res.status(404).json({ error: 'not_found' });
    if (token) {
      const auth = req.header('authorization') ?? '';
      const presented = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
      if (!constantTimeEqual(presented, token)) return res.status(401).json({ error: 'unauthenticated' });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type(registry.contentType).send(await registry.metrics());
  });
  return r;
}
