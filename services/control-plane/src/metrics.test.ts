import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen, parsePrometheus, promValue } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

/**
 * The control plane's /metrics (token rules: packages/http/src/metrics): every tRPC call counts
 * once by procedure type and tRPC code, batched or not, and requests are timed by family.
 */
describe('GET /metrics (control plane)', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  const TOKEN = 'metrics-token-metrics-token-metrics-token';

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db, { env: { MOS_METRICS_TOKEN: TOKEN } });
    cp = await listen(createControlPlaneApp(deps));
    owner = await seedOperator(deps, { role: 'owner' });
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  const scrape = async () => {
    const res = await fetch(`${cp.url}/metrics`, { headers: bearer(TOKEN) });
    expect(res.status).toBe(200);
    return res.text();
  };
  const calls = (text: string, type: string, code: string) => promValue(text, 'mos_control_plane_trpc_calls_total', { type, code });

  it('is behind the shared guard (401 without the bearer)', async () => {
    expect((await fetch(`${cp.url}/metrics`)).status).toBe(401);
  });

  it('counts tRPC calls by type and code (a batch counts each call) and times them by family', async () => {
    const before = await scrape();
    const auth = bearer(owner.token);
    // A batch of two queries: one succeeds, one fails its input check.
    const batch = await jsonRequest(
      `${cp.url}/trpc/account.limits,contacts.get?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: undefined, 1: { id: 42 } }))}`,
      { headers: auth },
    );
    expect(batch.status).toBe(207);
    // Unauthenticated, a mutation with a missing record, an unknown procedure.
    expect((await jsonRequest(`${cp.url}/trpc/account.limits`)).status).toBe(401);
    expect((await jsonRequest(`${cp.url}/trpc/apiKeys.revoke`, { method: 'POST', headers: auth, body: { id: 'key_missing' } })).status).toBe(404);
    expect((await jsonRequest(`${cp.url}/trpc/no.such.procedure`, { headers: auth })).status).toBe(404);
    const after = await scrape();
    expect(calls(after, 'query', 'OK') - calls(before, 'query', 'OK')).toBe(1);
    expect(calls(after, 'query', 'BAD_REQUEST') - calls(before, 'query', 'BAD_REQUEST')).toBe(1);
    expect(calls(after, 'query', 'UNAUTHORIZED') - calls(before, 'query', 'UNAUTHORIZED')).toBe(1);
    expect(calls(after, 'mutation', 'NOT_FOUND') - calls(before, 'mutation', 'NOT_FOUND')).toBe(1);
    expect(calls(after, 'unknown', 'NOT_FOUND') - calls(before, 'unknown', 'NOT_FOUND')).toBe(1);
    const timed = (text: string, family: string, status_class: string) =>
      promValue(text, 'mos_control_plane_request_duration_seconds_count', { family, status_class });
    // The batch answers 207 (multi-status), the unauthenticated and unknown calls 401 and 404.
    expect(timed(after, 'trpc_query', '2xx') - timed(before, 'trpc_query', '2xx')).toBe(1);
    expect(timed(after, 'trpc_query', '4xx') - timed(before, 'trpc_query', '4xx')).toBe(2);
    expect(timed(after, 'trpc_mutation', '4xx') - timed(before, 'trpc_mutation', '4xx')).toBe(1);
    // No label names a procedure path.
    const labels = parsePrometheus(after)
      .filter((s) => s.name === 'mos_control_plane_trpc_calls_total')
      .flatMap((s) => Object.values(s.labels));
    expect(labels.some((v) => v.includes('.'))).toBe(false);
    expect(after).toContain('# TYPE mos_control_plane_process_cpu_user_seconds_total counter');
  });
});
