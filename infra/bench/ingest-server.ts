/**
 * Child process of ingest-latency.ts: serves the provider webhook ingress over one database,
 * either as the real Express API app or as a bare node:http handler doing the same work
 * (same resolver cache, same verify + parse + one-transaction store), so the bench can
 * report how much the framework costs. Prints `LISTENING <port>` when ready.
 *
 *   tsx infra/bench/ingest-server.ts <express|bare>   (env: DATABASE_URL, MOS_MASTER_KEY, DATABASE_POOL_MAX)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiApp } from '@mos/api';
import { createLogger, loadEnv } from '@mos/config';
import { newId, systemClock } from '@mos/core';
import { createDatabase, createVault } from '@mos/db';
import { createIngressResolver, ingestProviderWebhook, lazyTemporalClient, type AppDeps } from '@mos/app';
import { providerClientFromEnv } from '@mos/provider';

const kind = process.argv[2] === 'bare' ? 'bare' : 'express';
const env = loadEnv({ ...process.env, MOS_ENV: 'test', LOG_LEVEL: 'silent' });
const database = createDatabase(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX, applicationName: `mos-bench-${kind}` });
const deps: AppDeps = {
  db: database.db,
  env,
  log: createLogger({ name: 'bench', level: 'silent' }),
  clock: systemClock,
  vault: createVault(Buffer.from(env.MOS_MASTER_KEY!, 'hex'), env),
  provider: providerClientFromEnv(env),
  temporal: lazyTemporalClient({ address: env.TEMPORAL_ADDRESS, namespace: env.TEMPORAL_NAMESPACE }),
};

function bare() {
  const resolver = createIngressResolver(deps, env.WEBHOOK_INGRESS_CACHE_MS);
  return createServer((req, res) => {
    const startedAt = process.hrtime.bigint();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        const target = await resolver.resolve();
        if (!target) return send(503, { error: 'provider_ingress_not_configured' });
        const out = await ingestProviderWebhook(deps, target, {
          source: 'messaging',
          rawBody: Buffer.concat(chunks),
          headers: req.headers,
          query: {},
          requestId: newId('request'),
          receivedAt: deps.clock.now(),
          startedAt,
          maxBodyBytes: deps.env.WEBHOOK_BODY_LIMIT_BYTES,
        });
        send(200, out.body);
      } catch {
        send(503, { error: 'service_unavailable' });
      }
    });
  });
}

const server = kind === 'bare' ? bare() : createApiApp(deps).listen(0, '127.0.0.1');
if (kind === 'bare') server.listen(0, '127.0.0.1');
server.keepAliveTimeout = 65_000;
server.on('listening', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => database.close().finally(() => process.exit(0))));
