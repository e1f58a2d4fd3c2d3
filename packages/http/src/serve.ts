import type { Express } from 'express';
import type { Server } from 'node:http';
import type { Logger } from '@mos/config';

export interface ListenAddress {
  /** Env HOST: 127.0.0.1 by default, 0.0.0.0 in a container or behind a load balancer. */
  host: string;
  port: number;
}

/** Listens, and on SIGINT/SIGTERM stops accepting, drains, then runs `onClose`. */
export function serve(app: Express, { host, port }: ListenAddress, log: Logger, name: string, onClose: () => Promise<void>): Server {
  const server = app.listen(port, host, () => log.info({ host, port }, `${name} listening`));
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${name} stopping`);
    server.close(() => {
      onClose().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return server;
}
