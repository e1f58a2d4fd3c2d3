import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, listen, parsePrometheus, promValue } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace } from '../testing/webhooks';
import { apiRouteFamily } from './metrics';

/**
 * The API's /metrics (token rules: packages/http/src/metrics): the provider ingress counters
 * and the request latency histogram move with the requests this process answers.
 */
describe('GET /metrics (API)', () => {
  let tdb: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;
  const TOKEN = 'metrics-token-metrics-token-metrics-token';
  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db, { env: { MOS_METRICS_TOKEN: TOKEN, WEBHOOK_INGRESS_CACHE_MS: '0' } });
    await seedIngressWorkspace(deps);
    server = await listen(createApiApp(deps));
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) });
    expect(res.status).toBe(200);
    return res.text();
  };
  const duration = (text: string, family: string, status_class: string) => promValue(text, 'mos_api_request_duration_seconds_count', { family, status_class });

  it('is behind the shared guard (401 without the bearer)', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
  });

  it('a stored webhook moves the ingress counters and the provider latency histogram; refusals count by outcome', async () => {
    const before = await scrape();
    expect((await postWebhook(server.url, fixture('inbound-text.json'))).status).toBe(200);
    expect((await postWebhook(server.url, fixture('inbound-text.json'), { signature: 'sha256=00' })).status).toBe(200);
    const after = await scrape();
    const ingress = (text: string, outcome: string) => promValue(text, 'mos_webhook_ingress_requests_total', { outcome });
    expect(ingress(after, 'received') - ingress(before, 'received')).toBe(2);
    expect(ingress(after, 'accepted') - ingress(before, 'accepted')).toBe(1);
    expect(ingress(after, 'rejected') - ingress(before, 'rejected')).toBe(1);
    expect(duration(after, 'provider', '2xx') - duration(before, 'provider', '2xx')).toBe(2);
    const sum = (text: string) => promValue(text, 'mos_api_request_duration_seconds_sum', { family: 'provider', status_class: '2xx' });
    expect(sum(after)).toBeGreaterThan(sum(before));
    // Buckets are cumulative: the +Inf bucket holds every observation.
    expect(promValue(after, 'mos_api_request_duration_seconds_bucket', { family: 'provider', status_class: '2xx', le: '+Inf' })).toBe(
      duration(after, 'provider', '2xx'),
    );
  });

  it('inbound, compat, /v1 and /internal requests land in their own families, refusals as 4xx; labels stay a fixed set', async () => {
    const before = await scrape();
    const post = (path: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await post('/api/v1/inbound-webhooks/no-such-slug')).status).toBeGreaterThanOrEqual(400);
    expect((await post('/compat/contact')).status).toBe(401);
    expect((await post('/webhooks/v0/rest-trigger/organization/o1/flow/f1/trigger/')).status).toBe(401);
    expect((await post('/v1/messages')).status).toBe(401);
    expect((await fetch(`${server.url}/internal/webhooks`)).status).toBe(401);
    expect((await fetch(`${server.url}/no/such/path/ws_123`)).status).toBe(404);
    const after = await scrape();
    expect(duration(after, 'inbound', '4xx') - duration(before, 'inbound', '4xx')).toBe(1);
    expect(duration(after, 'compat', '4xx') - duration(before, 'compat', '4xx')).toBe(2);
    expect(duration(after, 'v1', '4xx') - duration(before, 'v1', '4xx')).toBe(1);
    expect(duration(after, 'internal', '4xx') - duration(before, 'internal', '4xx')).toBe(1);
    expect(duration(after, 'other', '4xx') - duration(before, 'other', '4xx')).toBe(1);
    // Scrapes and probes are not timed; no label carries a path, a slug or an id.
    const families = new Set(
      parsePrometheus(after)
        .filter((s) => s.name.startsWith('mos_api_request_duration_seconds'))
        .map((s) => s.labels.family),
    );
    expect([...families].sort()).toEqual(['compat', 'inbound', 'internal', 'other', 'provider', 'v1']);
  });

  it('route families: every ingest path maps to its family, probes and /metrics to none', () => {
    expect(apiRouteFamily('/webhooks/messaging')).toBe('provider');
    expect(apiRouteFamily('/webhooks/provider/acme')).toBe('provider');
    expect(apiRouteFamily('/api/v1/inbound-webhooks/abc')).toBe('inbound');
    expect(apiRouteFamily('/api/v1beta/contact/')).toBe('compat');
    expect(apiRouteFamily('/api/v0/webhooks/incoming/partner/custom_external_event')).toBe('compat');
    expect(apiRouteFamily('/compat/journey-trigger/a/b')).toBe('compat');
    expect(apiRouteFamily('/v1/contacts')).toBe('v1');
    expect(apiRouteFamily('/v1x')).toBe('other');
    for (const p of ['/health', '/ready', '/metrics']) expect(apiRouteFamily(p)).toBeNull();
  });
});
