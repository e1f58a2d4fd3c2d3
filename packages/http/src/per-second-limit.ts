import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '@mos/app';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Where the counters live (RATE_LIMIT_STORE): this process (`memory`, the default: N API
 * replicas allow N times the rate), or the `rate_limits` table every replica shares (`postgres`).
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'postgres'; pool: unknown };

export function rateLimitStoreOf(deps: Pick<AppDeps, 'db' | 'env'>): RateLimitStore {
  if (deps.env.RATE_LIMIT_STORE !== 'postgres') return { kind: 'memory' };
  // The process's pg pool, which drizzle keeps as $client (the Db type leaves it out).
  const pool = (deps.db as { $client?: unknown }).$client;
  if (!pool) throw new Error('RATE_LIMIT_STORE=postgres: the database handle has no pg pool');
  return { kind: 'postgres', pool };
}

/**
 * How long a shared count may take before this request is judged by the process's own count
 * instead: the limiter guards ingestion, it must never become what slows or fails it.
 */
export const SHARED_LIMIT_TIMEOUT_MS = 250;

/** The table's key column is varchar(255): longer keys (an inbound slug is caller-chosen) are hashed. */
const storedKey = (key: string) => (key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`);

function limiterFor(name: string, points: number, store: RateLimitStore): { consume(key: string): Promise<unknown> } {
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: 1 });
  if (store.kind === 'memory') return memory;
  const shared = new RateLimiterPostgres({
    storeClient: store.pool,
    tableName: 'rate_limits',
    // Created by migration 0010 (packages/db): no DDL from a request path.
    tableCreated: true,
    keyPrefix: name,
    points,
    duration: 1,
  });
  // A PostgreSQL error or a slow answer falls back to the in-memory insurance limiter: each
  // replica then enforces the full rate on its own until the database answers again.
  const guarded: RateLimiterAbstract = new RLWrapperTimeouts({ limiter: shared, timeoutMs: SHARED_LIMIT_TIMEOUT_MS, insuranceLimiter: memory });
  return { consume: (key) => guarded.consume(storedKey(key)) };
}

/**
 * A per-key requests-per-second guard (rate-limiter-flexible): past the budget, `Retry-After` and
 * whatever answer the route's callers expect (`refuse` writes it: the provider ingress, the
 * inbound webhooks and the legacy paths each have their own shape). `name` keeps each route's
 * budgets apart in a shared store.
 */
export function perSecondLimit(opts: {
  name: string;
  points: number;
  keyOf(req: Request): string;
  refuse(res: Response): void;
  store?: RateLimitStore;
}): RequestHandler {
  const limiter = limiterFor(opts.name, opts.points, opts.store ?? { kind: 'memory' });
  return async (req, res, next) => {
    try {
      await limiter.consume(opts.keyOf(req));
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return next(err);
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      opts.refuse(res);
    }
  };
}
