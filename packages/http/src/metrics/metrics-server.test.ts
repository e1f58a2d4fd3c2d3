import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@mos/config';
import { Counter, createMetricsRegistry, startMetricsServer, type MetricsServer } from './index';
import { bearer, promValue } from '../testing';

/**
 * The one /metrics implementation every process serves (the API and the control plane mount
 * metricsHandler, the worker runs startMetricsServer): its token rules, tested here once.
 */
const TOKEN = 'metrics-token-metrics-token-metrics-token';
const log = createLogger({ name: 'metrics-test', level: 'silent' });
let server: MetricsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(env: { MOS_ENV: 'test' | 'production'; MOS_METRICS_TOKEN?: string }, healthy = true) {
  const registry = createMetricsRegistry('worker');
  const hits = new Counter({ name: 'mos_test_hits_total', help: 'test', registers: [registry] });
  server = await startMetricsServer({ host: '127.0.0.1', port: 0, env, registry, log, name: 'test', health: () => ({ healthy, body: { ok: healthy } }) });
  return { url: server.url, hits };
}

describe('GET /metrics (shared handler)', () => {
  it('with MOS_METRICS_TOKEN: 401 without a bearer or with a wrong one, Prometheus text with the right one', async () => {
    const { url, hits } = await start({ MOS_ENV: 'production', MOS_METRICS_TOKEN: TOKEN });
    hits.inc(3);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: bearer(`${TOKEN}x`) })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: TOKEN } })).status).toBe(401);
    const ok = await fetch(`${url}/metrics`, { headers: bearer(TOKEN) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const text = await ok.text();
    expect(text).toContain('# TYPE mos_test_hits_total counter');
    expect(promValue(text, 'mos_test_hits_total')).toBe(3);
    // Node's defaults, under the process prefix.
    expect(text).toContain('# TYPE mos_worker_process_cpu_user_seconds_total counter');
  });

  it('without a token: off (404) in production, open elsewhere', async () => {
    const prod = await start({ MOS_ENV: 'production' });
    expect((await fetch(`${prod.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${prod.url}/metrics`, { headers: bearer(TOKEN) })).status).toBe(404);
    await server!.close();
    server = null;
    const dev = await start({ MOS_ENV: 'test' });
    expect((await fetch(`${dev.url}/metrics`)).status).toBe(200);
  });

  it('GET /health answers 200 or 503 from the process, without a token; nothing else is served', async () => {
    const up = await start({ MOS_ENV: 'production', MOS_METRICS_TOKEN: TOKEN });
    expect(await (await fetch(`${up.url}/health`)).json()).toEqual({ ok: true });
    expect((await fetch(`${up.url}/internal/webhooks`)).status).toBe(404);
    await server!.close();
    server = null;
    const down = await start({ MOS_ENV: 'test' }, false);
    expect((await fetch(`${down.url}/health`)).status).toBe(503);
  });
});
