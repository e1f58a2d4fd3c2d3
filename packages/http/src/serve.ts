import type { Express } from 'express';
import type { Server } from 'node:http';
import type { Logger } from '@mos/config';

/** Listens, and on SIGINT/SIGTERM stops accepting, drains, then runs `onClose`. */
export function serve(app: Express, port: number, log: Logger, name: string, onClose: () => Promise<void>): Server {
  const server = app.listen(port, '0.0.0.0', () => log.info({ port }, `${name} listening`));
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
