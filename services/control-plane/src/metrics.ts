import { Router, type Request, type RequestHandler } from 'express';
import { Counter, createMetricsRegistry, metricsHandler, requestDuration } from '@mos/http';
import type { AppDeps } from '@mos/app';

/** A control-plane request, for its latency series: tRPC by procedure type (tRPC sends queries as GET, mutations as POST). */
export type ControlPlaneFamily = 'trpc_query' | 'trpc_mutation' | 'rest' | 'auth' | 'other';

function familyOf(req: Request): ControlPlaneFamily | null {
  const path = req.path;
  if (path === '/health' || path === '/metrics') return null;
  if (path.startsWith('/trpc/')) return req.method === 'GET' ? 'trpc_query' : req.method === 'POST' ? 'trpc_mutation' : 'other';
  if (path.startsWith('/api/auth/')) return 'auth';
  if (path.startsWith('/api/')) return 'rest';
  return 'other';
}

/** Called once per procedure call of a tRPC request: its type and the tRPC code it ended with ('OK' on success). */
export type TrpcCallObserver = (type: string, code: string) => void;

export interface ControlPlaneMetrics {
  observe: RequestHandler;
  routes: Router;
  trpcCall: TrpcCallObserver;
}

const PROCEDURE_TYPES = new Set(['query', 'mutation', 'subscription']);

/**
 * The control plane's figures (docs/operations.md): Node's defaults under
 * `mos_control_plane_`, tRPC calls by procedure type and outcome code, and request latency by
 * family and status class. Codes are tRPC's fixed set; an unknown procedure counts as type `unknown`.
 */
export function controlPlaneMetrics(deps: AppDeps): ControlPlaneMetrics {
  const registry = createMetricsRegistry('control_plane');
  const calls = new Counter({
    name: 'mos_control_plane_trpc_calls_total',
    help: "tRPC procedure calls, by procedure type (query, mutation, unknown) and the tRPC code they ended with ('OK' on success).",
    labelNames: ['type', 'code'] as const,
    registers: [registry],
  });
  const observe = requestDuration(registry, {
    name: 'mos_control_plane_request_duration_seconds',
    help: 'Control-plane requests from arrival to answer, by family (trpc_query, trpc_mutation, rest, auth, other) and status class.',
    familyOf,
  });
  const routes = Router();
  routes.get('/metrics', metricsHandler(deps.env, registry));
  return {
    observe,
    routes,
    trpcCall: (type, code) => calls.inc({ type: PROCEDURE_TYPES.has(type) ? type : 'unknown', code: /^[A-Z_]{1,40}$/.test(code) ? code : 'OTHER' }),
  };
}
