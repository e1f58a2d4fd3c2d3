import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Env, Logger } from '@mos/config';
import { metricsHandler } from './metrics-handler';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  host: string;
  /** 0: an ephemeral port (tests). */
  port: number;
  env: Pick<Env, 'MOS_METRICS_TOKEN' | 'MOS_ENV'>;
  registry: Registry;
  log: Logger;
  name: string;
  /** GET /health: 200 when healthy, 503 otherwise, with the body either way. */
  health(): { healthy: boolean; body: Record<string, unknown> };
}

/**
 * The small HTTP server of a process that has no app of its own (the worker): GET /metrics
 * (the shared handler, same token rules as the API's) and GET /health. Nothing else answers.
 */
export async function startMetricsServer(opts: MetricsServerOptions): Promise<MetricsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsHandler(opts.env, opts.registry));
  app.get('/health', (_req, res) => {
    const { healthy, body } = opts.health();
    res.setHeader('Cache-Control', 'no-store');
    res.status(healthy ? 200 : 503).json(body);
  });
  app.use((_req, res) => res.status(404).json({ error: 'not_found' }));
  const server: Server = app.listen(opts.port, opts.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  opts.log.info({ host: opts.host, port }, `${opts.name} metrics listening`);
  return {
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the process open.
        server.closeAllConnections();
      }),
  };
}
