import express, { type Express } from 'express';
import { buildVersion } from '@mos/config';
import { authRoutes, errorHandler, jsonBody, notFoundHandler, requestId } from '@mos/http';
import type { AppDeps } from '@mos/app';
import { settingsRoutes } from './routes/settings';
import { templateRoutes } from './routes/templates';
import { contactRoutes } from './routes/contacts';
import { inboundWebhookRoutes } from './routes/inbound-webhooks';
import { trpcHandler } from './trpc-http';
import { controlPlaneMetrics } from './metrics';

/**
 * The control-plane app: /trpc (the typed surface) and /api/* REST routes that are thin
 * adapters over the same procedures.
 */
export function createControlPlaneApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  const metrics = controlPlaneMetrics(deps);
  // First, so a request's latency covers everything after its arrival.
  app.use(metrics.observe);
  app.use(requestId);

  app.get('/health', (_req, res) => {
    res.json({ ok: true, service: 'control-plane', buildVersion: buildVersion(), environment: deps.env.MOS_ENV, timestamp: deps.clock.now().toISOString() });
  });

  app.use(metrics.routes);
  app.use('/trpc', trpcHandler(deps, metrics.trpcCall));

  app.use('/api/auth', authRoutes(deps));
  app.use('/api', jsonBody('1mb'));
  app.use('/api', settingsRoutes(deps));
  app.use('/api', templateRoutes(deps));
  app.use('/api', contactRoutes(deps));
  app.use('/api', inboundWebhookRoutes(deps));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
