import express from 'express';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { errorHandler, notFoundHandler, requestId } from '@mos/http';
import { listen } from '@mos/http/testing';
import { API_RATE_LIMIT_PER_MINUTE, platformSettingsInput, revokeWorkspaceApiKey, updatePlatformSettings, type AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../../app';
import { v1Routes } from './index';
import { seedApiKey, v1, type SeededKey } from './testing';

const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];

describe('/v1 API keys and rate limits', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededKey;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    a = await seedApiKey(deps);
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const scopeOf = (k: SeededKey) => ({ workspaceId: k.workspaceId, actorId: k.op.memberId, role: k.op.role });
  const platform = (k: SeededKey) => ({ workspaceId: k.workspaceId, actorId: 'cli', role: 'platform' as const });
  const lastUsed = async (keyId: string) => (await tdb.db.select().from(apiKeys).where(eq(apiKeys.id, keyId)))[0]!.lastUsedAt;

  it('401 invalid_api_key without a key, with an unknown one, or with a session token instead', async () => {
    for (const key of [null, '', 'mos_live_nope', `${a.key}x`, 'x'.repeat(5000), a.op.token]) {
      const res = await v1(api.url, key, '/templates');
      expect(res, String(key).slice(0, 20)).toMatchObject({ status: 401, body: { error: 'invalid_api_key' } });
      // No key, no budget to report.
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(await v1(api.url, null, '/messages', { body: { to: '+393331234567' } })).toMatchObject({ status: 401 });
    expect(await v1(api.url, null, '/nope')).toMatchObject({ status: 401 });
  });

  it('accepts a live key; a revoked key fails on its very next request', async () => {
    const k = await seedApiKey(deps);
    expect((await v1(api.url, k.key, '/templates')).status).toBe(200);
    await revokeWorkspaceApiKey(deps, scopeOf(k), k.keyId);
    expect(await v1(api.url, k.key, '/templates')).toMatchObject({ status: 401, body: { error: 'invalid_api_key' } });
  });

  it('stamps last_used_at off the request path, at most once a minute', async () => {
    const k = await seedApiKey(deps);
    expect(await lastUsed(k.keyId)).toBeNull();
    await v1(api.url, k.key, '/templates');
    await expect.poll(() => lastUsed(k.keyId)).not.toBeNull();
    const first = (await lastUsed(k.keyId))!.getTime();
    await v1(api.url, k.key, '/templates');
    await new Promise((r) => setTimeout(r, 100));
    expect((await lastUsed(k.keyId))!.getTime()).toBe(first);
  });

  it('every keyed answer carries the RateLimit headers with the default budget, whatever its status', async () => {
    const k = await seedApiKey(deps);
    const answers = [
      await v1(api.url, k.key, '/templates'),
      await v1(api.url, k.key, '/contacts?limit=0'),
      await v1(api.url, k.key, '/messages/nope'),
      await v1(api.url, k.key, '/nope'),
      await v1(api.url, k.key, '/messages', { body: {} }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 404, 404, 400]);
    answers.forEach((res, i) => {
      for (const h of RATE_HEADERS) expect(res.headers.get(h), `${i} ${h}`).not.toBeNull();
      expect(res.headers.get('ratelimit-limit')).toBe(String(API_RATE_LIMIT_PER_MINUTE.default));
      expect(res.headers.get('ratelimit-remaining')).toBe(String(API_RATE_LIMIT_PER_MINUTE.default - 1 - i));
      expect(res.headers.get('ratelimit-policy')).toBe(`${API_RATE_LIMIT_PER_MINUTE.default};w=60`);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
    });
  });

  it("429 rate_limited with Retry-After past the workspace's override, per key", async () => {
    const k = await seedApiKey(deps);
    await updatePlatformSettings(deps, platform(k), { apiRateLimitPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await v1(api.url, k.key, '/templates');
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
      expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
    }
    expect(statuses).toEqual([200, 200, 200]);
    const over = await v1(api.url, k.key, '/templates');
    expect(over).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    // Another key of the same workspace has its own budget; another workspace its own limit.
    const sibling = await seedApiKey(deps, { workspace: k.op.workspaceSlug });
    expect((await v1(api.url, sibling.key, '/templates')).status).toBe(200);
    expect((await v1(api.url, a.key, '/templates')).headers.get('ratelimit-limit')).toBe(String(API_RATE_LIMIT_PER_MINUTE.default));
  });

  it('a changed override applies once the per-workspace cache lapses (here: not cached)', async () => {
    const app = express()
      .use(requestId)
      .use('/v1', v1Routes(deps, { rateLimit: { limitCacheMs: 0 } }))
      .use(notFoundHandler)
      .use(errorHandler(deps.log));
    const server = await listen(app);
    try {
      const k = await seedApiKey(deps);
      await updatePlatformSettings(deps, platform(k), { apiRateLimitPerMinute: 1 });
      expect((await v1(server.url, k.key, '/templates')).status).toBe(200);
      expect((await v1(server.url, k.key, '/templates')).status).toBe(429);
      await updatePlatformSettings(deps, platform(k), { apiRateLimitPerMinute: 5 });
      const res = await v1(server.url, k.key, '/templates');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe('2');
      await updatePlatformSettings(deps, platform(k), { apiRateLimitPerMinute: null });
      expect((await v1(server.url, k.key, '/templates')).headers.get('ratelimit-limit')).toBe(String(API_RATE_LIMIT_PER_MINUTE.default));
    } finally {
      await server.close();
    }
  });

  it('the override is bounded', async () => {
    const k = await seedApiKey(deps);
    for (const v of [0, -1, 1.5, API_RATE_LIMIT_PER_MINUTE.max + 1]) expect(platformSettingsInput.safeParse({ apiRateLimitPerMinute: v }).success).toBe(false);
    expect((await updatePlatformSettings(deps, platform(k), { apiRateLimitPerMinute: 1000 })).apiRateLimitPerMinute).toBe(1000);
  });
});
