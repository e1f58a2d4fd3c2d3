import express, { type Express } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { buildVersion } from '@mos/config';
import { authRoutes, errorHandler, notFoundHandler, requestId } from '@mos/http';
import { appRouter, authenticate, tokenFromHeaders, type AppDeps } from '@mos/trpc';
import { settingsRoutes } from './routes/settings';
import { templateRoutes } from './routes/templates';
import { contactRoutes } from './routes/contacts';

/**
 * The control-plane app: /trpc (the typed surface) and /api/* REST routes that are thin
 * adapters over the same procedures.
 */
export function createControlPlaneApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);

  app.get('/health', (_req, res) => {
    res.json({ ok: true, service: 'control-plane', buildVersion: buildVersion(), environment: deps.env.MOS_ENV, timestamp: deps.clock.now().toISOString() });
  });

  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: async ({ req }) => ({
        deps,
        actor: await authenticate(deps, tokenFromHeaders(req.headers)),
        requestId: req.requestId,
      }),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error({ err: error.cause ?? error, path }, 'tRPC procedure failed');
      },
    }),
  );

  app.use('/api/auth', authRoutes(deps));
  app.use('/api', express.json({ limit: '1mb' }), settingsRoutes(deps));
  app.use('/api', express.json({ limit: '1mb' }), templateRoutes(deps));
  app.use('/api', express.json({ limit: '1mb' }), contactRoutes(deps));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return app;
}
