import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';
import { withEnv } from '../testing/webhooks';

/** GET /metrics is the platform's view: its own bearer token, never a tenant session. */
describe('GET /metrics', () => {
  let tdb: TestDatabase;
  const TOKEN = 'metrics-token-metrics-token-metrics-token';
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const scrape = async (env: Record<string, string>, headers: Record<string, string> = {}) => {
    const server = await listen(createApiApp(withEnv(testDeps(tdb.db), env)));
    try {
      const res = await fetch(`${server.url}/metrics`, { headers });
      return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
    } finally {
      await server.close();
    }
  };

  it('with MOS_METRICS_TOKEN set: 401 without it or with a wrong one, Prometheus text with it', async () => {
    expect((await scrape({ MOS_METRICS_TOKEN: TOKEN })).status).toBe(401);
    expect((await scrape({ MOS_METRICS_TOKEN: TOKEN }, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    const ok = await scrape({ MOS_METRICS_TOKEN: TOKEN }, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain/);
    expect(ok.text).toContain('# TYPE mos_webhook_ingress_requests_total counter');
    expect(ok.text).toContain('mos_api_process_cpu_user_seconds_total');
  });

  it('off (404) in production when no token is configured', async () => {
    const res = await scrape({ MOS_ENV: 'production', MOS_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect(res.status).toBe(404);
  });
});
