import { createServer, type Server, type Socket } from 'node:net';
import express from 'express';
import pg from 'pg';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, rateLimits, type Database } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { perSecondLimit, SHARED_LIMIT_TIMEOUT_MS } from '@mos/http';
import type { AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, withEnv } from '../testing/webhooks';

/**
 * RATE_LIMIT_STORE=postgres (issue 15, "past one machine"): API replicas share one budget through
 * the rate_limits table, and a PostgreSQL that fails or stalls degrades the limit to each
 * process's own count instead of failing the requests it guards.
 */
describe('shared rate limiter store', () => {
  let tdb: TestDatabase;
  let base: AppDeps;
  const pools: Database[] = [];
  /** An API instance as another process runs it: its own pool on the same database. */
  const instance = (env: Record<string, string>) => {
    const database = createDatabase(tdb.url, { max: 2 });
    pools.push(database);
    return listen(createApiApp({ ...withEnv(base, env), db: database.db }));
  };
  /** Eight deliveries at once, alternating between the instances; the statuses by instance. */
  const burst = async (a: string, b: string) => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => postWebhook(i % 2 ? b : a, fixture('status-read.json'))));
    return results.map((r) => r.status);
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    base = testDeps(tdb.db);
    await seedIngressWorkspace(base);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await tdb?.drop();
  });

  it('two API instances on one database share the per-source budget (in memory, each has its own)', async () => {
    const own = [await instance({ WEBHOOK_RATE_LIMIT_PER_SECOND: '3' }), await instance({ WEBHOOK_RATE_LIMIT_PER_SECOND: '3' })];
    try {
      const statuses = await burst(own[0]!.url, own[1]!.url);
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    } finally {
      await Promise.all(own.map((s) => s.close()));
    }
    // A new window for the shared run.
    await new Promise((r) => setTimeout(r, 1_100));

    const env = { WEBHOOK_RATE_LIMIT_PER_SECOND: '3', RATE_LIMIT_STORE: 'postgres' };
    const shared = [await instance(env), await instance(env)];
    try {
      const statuses = await burst(shared[0]!.url, shared[1]!.url);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      // Counted in the table migration 0010 made, under the route's own prefix.
      const rows = await tdb.db.select().from(rateLimits).where(like(rateLimits.key, 'provider-webhook:%'));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.points).toBe(8);
      expect(rows[0]!.expire).toBeGreaterThan(Date.now() - 5_000);
    } finally {
      await Promise.all(shared.map((s) => s.close()));
    }
  });

  describe('when PostgreSQL fails, the process counts on its own: the guarded route neither errors nor waits', () => {
    /** A route limited to 2 per second on `pool`; five calls at once (one window), their statuses and the slowest. */
    const fiveCalls = async (pool: pg.Pool) => {
      const app = express();
      app.get(
        '/guarded',
        perSecondLimit({ name: 'probe', points: 2, keyOf: () => 'k', refuse: (res) => res.status(429).end(), store: { kind: 'postgres', pool } }),
        (_req, res) => res.status(200).end(),
      );
      const server = await listen(app);
      try {
        const started = Date.now();
        const statuses = await Promise.all(Array.from({ length: 5 }, async () => (await fetch(`${server.url}/guarded`)).status));
        return { statuses: statuses.sort(), slowest: Date.now() - started };
      } finally {
        await server.close();
      }
    };

    it('refused connections', async () => {
      const pool = new pg.Pool({ connectionString: 'postgres://mos@127.0.0.1:1/none', connectionTimeoutMillis: 2_000 });
      pool.on('error', () => {});
      try {
        expect((await fiveCalls(pool)).statuses).toEqual([200, 200, 429, 429, 429]);
      } finally {
        await pool.end();
      }
    });

    it(`a server that accepts and never answers: each call is judged within ${SHARED_LIMIT_TIMEOUT_MS} ms and then locally`, async () => {
      const sockets: Socket[] = [];
      const silent: Server = createServer((s) => void sockets.push(s));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      const port = (silent.address() as { port: number }).port;
      const pool = new pg.Pool({ connectionString: `postgres://mos@127.0.0.1:${port}/none`, connectionTimeoutMillis: 3_000 });
      pool.on('error', () => {});
      try {
        const { statuses, slowest } = await fiveCalls(pool);
        expect(statuses).toEqual([200, 200, 429, 429, 429]);
        // The timeout plus a busy machine's slack: far below the pool's own 3 s connect timeout.
        expect(slowest).toBeLessThan(SHARED_LIMIT_TIMEOUT_MS + 1_000);
      } finally {
        sockets.forEach((s) => s.destroy());
        silent.close();
        await pool.end().catch(() => {});
      }
    });
  });
});
