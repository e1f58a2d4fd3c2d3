import { Router, type RequestHandler } from 'express';
import { Counter, createMetricsRegistry, metricsHandler, requestDuration } from '@mos/http';
import type { AppDeps, IngressCounter, IngressMetrics } from '@mos/app';

/** What an API request is, for its latency series: ingest families by name, operator and the rest grouped. */
export type ApiRouteFamily = 'provider' | 'inbound' | 'compat' | 'v1' | 'internal' | 'other';

const COMPAT_PREFIXES = ['/compat/', '/api/v1beta/contact', '/webhooks/v0/', '/api/v0/webhooks/'];

/** The family of a request path; null for the probes and /metrics (scrapes would drown the figures). */
export function apiRouteFamily(path: string): ApiRouteFamily | null {
  if (path === '/health' || path === '/ready' || path === '/metrics') return null;
  if (path.startsWith('/webhooks/messaging') || path.startsWith('/webhooks/provider')) return 'provider';
  if (path.startsWith('/api/v1/inbound-webhooks/')) return 'inbound';
  if (COMPAT_PREFIXES.some((p) => path.startsWith(p))) return 'compat';
  if (path === '/v1' || path.startsWith('/v1/')) return 'v1';
  if (path.startsWith('/internal/')) return 'internal';
  return 'other';
}

export interface ApiMetrics {
  /** Times every request (mount first). */
  observe: RequestHandler;
  /** GET /metrics. */
  routes: Router;
}

/**
 * The API process's figures (docs/operations.md): Node's defaults under `mos_api_`, the
 * provider ingress counters by outcome, and request-to-answer latency by route family and
 * status class. The shared handler guards GET /metrics (MOS_METRICS_TOKEN).
 */
export function apiMetrics(deps: AppDeps, ingress: IngressMetrics): ApiMetrics {
  const registry = createMetricsRegistry('api');
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
  const observe = requestDuration(registry, {
    name: 'mos_api_request_duration_seconds',
    help: 'API requests from arrival to answer, by route family (provider, inbound, compat, v1, internal, other) and status class.',
    familyOf: (req) => apiRouteFamily(req.path),
  });
  const routes = Router();
  routes.get('/metrics', metricsHandler(deps.env, registry));
  return { observe, routes };
}
