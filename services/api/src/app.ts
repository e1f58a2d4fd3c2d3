import express, { type Express } from 'express';
import { authRoutes, errorHandler, notFoundHandler, requestId, requireSession } from '@mos/http';
import { createIngressMetrics, type AppDeps } from '@mos/app';
import { apiMetrics } from './routes/metrics';
import { probeRoutes } from './routes/probes';
import { webhookIngressRoutes } from './routes/webhook-ingress';
import { internalWebhookRoutes } from './routes/internal-webhooks';
import { internalOperationsRoutes } from './routes/internal-operations';
import { internalContactRoutes } from './routes/internal-contacts';
import { internalTemplateRoutes, internalTemplateServiceRoutes } from './routes/internal-templates';
import { internalAccountRoutes } from './routes/internal-account';
import { internalSendingRoutes } from './routes/internal-sending';
import { v1Routes } from './routes/v1/index';
import { inboundWebhookRoutes } from './routes/inbound-webhooks';
import { compatRoutes } from './routes/compat';
import { internalCampaignRoutes } from './routes/internal-campaigns';
import { internalJourneyRoutes } from './routes/internal-journeys';

/**
 * The API app: probes, provider webhook ingress, inbound webhooks, the keyed /v1 surface, /internal operator reads and replays.
 * Body parsing is per router: the webhook ingress needs raw bytes, JSON routes parse JSON.
 */
export function createApiApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // Per-process ingress counters: each workspace's share in /internal/runtime, the whole in /metrics.
  const ingressMetrics = createIngressMetrics();
  const metrics = apiMetrics(deps, ingressMetrics);
  // First, so a request's latency covers everything after its arrival.
  app.use(metrics.observe);
  app.use(requestId);

  app.use(probeRoutes(deps));
  app.use(webhookIngressRoutes(deps, ingressMetrics));
  app.use(metrics.routes);
  // Signed by the sender's one-time secret, resolved by URL slug: no session, no API key.
  app.use(inboundWebhookRoutes(deps));
  // Legacy-compatible paths: API key (or the partner secret), legacy {status, message} answers.
  app.use(compatRoutes(deps));
  app.use('/api/auth', authRoutes(deps));
  // API-key routes: their own key check, rate limit and body parser (routes/v1/index.ts).
  app.use('/v1', v1Routes(deps));

  // Service-token routes (template sync) must precede the session guard below.
  app.use('/internal', internalTemplateServiceRoutes(deps));
  // Everything under /internal needs a live operator session, in every environment.
  app.use('/internal', requireSession(deps));
  app.use('/internal', internalWebhookRoutes(deps));
  app.use('/internal', internalOperationsRoutes(deps, ingressMetrics));
  app.use('/internal', internalContactRoutes(deps));
  app.use('/internal', internalTemplateRoutes(deps));
  app.use('/internal', internalAccountRoutes(deps));
  app.use('/internal', internalSendingRoutes(deps));
  app.use('/internal', internalCampaignRoutes(deps));
  app.use('/internal', internalJourneyRoutes(deps));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
