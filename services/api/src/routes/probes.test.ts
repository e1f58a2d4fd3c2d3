import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beatWorker, createDatabase } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';

const READY_SHAPE = {
  ready: expect.any(Boolean),
  buildVersion: expect.stringMatching(/^\d+\.\d+\.\d+\+\w+/),
  environment: 'test',
  providerConfigured: expect.any(Boolean),
  wabaId: expect.any(String),
  queueDepth: expect.any(Number),
  workerStatus: expect.any(String),
  checks: { database: expect.any(Boolean), provider: expect.any(Boolean), worker: expect.any(Boolean) },
};

describe('probes', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('/health answers without the database', async () => {
    // A pool pointed at a port nothing listens on: /health must not care.
    const dead = createDatabase('postgres://mos@127.0.0.1:1/none', { max: 1 });
    const server = await listen(createApiApp(testDeps(dead.db)));
    try {
      const res = await jsonRequest(`${server.url}/health`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, service: 'api', buildVersion: expect.any(String), environment: 'test', timestamp: expect.any(String) });
      expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
      const ready = await jsonRequest(`${server.url}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ ...READY_SHAPE, ready: false });
      expect(ready.body.checks.database).toBe(false);
    } finally {
      await server.close();
      await dead.close();
    }
  });

  it('/ready is 503 until the provider is configured and a worker beats, then 200', async () => {
    const deps = testDeps(tdb.db);
    const server = await listen(createApiApp(deps));
    try {
      let res = await jsonRequest(`${server.url}/ready`);
      expect(res).toMatchObject({
        status: 503,
        body: { ...READY_SHAPE, ready: false, providerConfigured: false, workerStatus: 'absent', checks: { database: true, provider: false, worker: false } },
      });

      const op = await seedOperator(deps, { providerIngress: true, wabaId: '102290129340398' });
      await deps.vault.set(deps.db, op.workspaceId, 'webhook-signing-secret', 'shh');
      res = await jsonRequest(`${server.url}/ready`);
      expect(res).toMatchObject({ status: 503, body: { providerConfigured: true, wabaId: '102290129340398', workerStatus: 'absent' } });

      const now = deps.clock.now();
      await beatWorker(deps.db, { workerId: 'w1', status: 'idle', startedAt: now, now });
      res = await jsonRequest(`${server.url}/ready`);
      expect(res).toMatchObject({ status: 200, body: { ...READY_SHAPE, ready: true, workerStatus: 'idle', queueDepth: 0 } });

      await beatWorker(deps.db, { workerId: 'w1', status: 'idle', startedAt: now, now: new Date(now.getTime() - 60_000) });
      res = await jsonRequest(`${server.url}/ready`);
      expect(res).toMatchObject({ status: 503, body: { workerStatus: 'stale' } });
    } finally {
      await server.close();
    }
  });
});
