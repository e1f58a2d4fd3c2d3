import { Router } from 'express';
import { LIMITS, pageQuery } from '@mos/core';
import { actorOf } from '@mos/http';
import { listWorkspaceAuditLogs, runtimeSnapshot, scopeOf, type AppDeps, type IngressMetrics } from '@mos/app';

/** /internal audit log and runtime snapshot. */
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

  return r;
}
