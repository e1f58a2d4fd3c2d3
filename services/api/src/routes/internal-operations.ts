import { Router } from 'express';
import { LIMITS, pageQuery } from '@mos/core';
import { actorOf } from '@mos/http';
import { listWorkspaceAuditLogs, runtimeSnapshot, scopeOf, type AppDeps, type IngressMetrics } from '@mos/app';

/** /internal audit log, runtime snapshot, and the (not yet built) campaigns and journeys. */
export function internalOperationsRoutes(deps: AppDeps, metrics: IngressMetrics): Router {
  const r = Router();

  r.get('/audit-logs', async (req, res) => {
    res.json(await listWorkspaceAuditLogs(deps, scopeOf(actorOf(req)), pageQuery(req.query, LIMITS.auditLogs)));
  });

  r.get('/runtime', async (req, res) => {
    const scope = scopeOf(actorOf(req));
    // Only this workspace's share: process-wide figures are platform metrics (GET /metrics).
    res.json(await runtimeSnapshot(deps, scope, { ingress: metrics.workspaceSnapshot(scope.workspaceId) }));
  });

  // Campaign and journey tables do not exist yet; the spec's listings answer empty until they do.
  r.get('/campaigns', (_req, res) => {
    res.json({ campaigns: [] });
  });
  r.get('/journeys', (_req, res) => {
    res.json({ journeys: [] });
  });

  return r;
}
