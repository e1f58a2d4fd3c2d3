import express, { type Express } from 'express';
import { authRoutes, errorHandler, notFoundHandler, requestId, requireSession } from '@mos/http';
import type { AppDeps } from '@mos/trpc';

import { probeRoutes } from './routes/probes';

/**
 * The API app: probes, provider webhook ingress, /internal operator reads and replays.
 * Body parsing is per router: the webhook ingress needs raw bytes, JSON routes parse JSON.
 */
export function createApiApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestId);

  app.use(probeRoutes(deps));
  app.use('/api/auth', authRoutes(deps));

  // Everything under /internal needs a live operator session, in every environment.
  app.use('/internal', requireSession(deps));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
