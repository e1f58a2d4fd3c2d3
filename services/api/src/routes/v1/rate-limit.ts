import type { RequestHandler } from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppError } from '@mos/core';
import { API_RATE_LIMIT_PER_MINUTE, getWorkspaceSettings, type AppDeps } from '@mos/app';
import { apiScopeOf } from './auth';

const WINDOW_SECONDS = 60;

export interface ApiRateLimitOptions {
  /** How long a workspace's limit is reused before it is read again (at most 10 s: an override applies within that). */
  limitCacheMs?: number;
}

/**
 * Per-key request budget on /v1 (docs/api-v1.md): API_RATE_LIMIT_PER_MINUTE.default requests
 * per fixed one-minute window, or the workspace's `api_rate_limit_per_minute`. Mount after
 * apiKeyAuth. Every answer carries the IETF draft headers (RateLimit-Limit, -Remaining,
 * -Reset in seconds, -Policy); past the budget, 429 rate_limited with Retry-After.
 *
 * One counter per key and window, compared with the workspace's current limit: an override
 * takes effect on the next request without resetting anyone's window. The counters are in
 * memory per process (like the webhook and sign-in limiters): with several API replicas each
 * keeps its own, so the effective budget is per replica until a shared store is configured.
 */
export function apiRateLimit(deps: AppDeps, options: ApiRateLimitOptions = {}): RequestHandler {
  const cacheMs = Math.min(options.limitCacheMs ?? 10_000, 10_000);
  // The budget is enforced below against the workspace's limit; the limiter only counts.
  const counter = new RateLimiterMemory({ keyPrefix: 'v1-key', points: Number.MAX_SAFE_INTEGER, duration: WINDOW_SECONDS });
  // Wall-clock time on purpose: deps.clock may be fixed in tests, and the limiter's window is wall-clock too.
  const limits = new Map<string, { perMinute: number; until: number }>();

  async function limitOf(workspaceId: string, actorId: string): Promise<number> {
    const hit = limits.get(workspaceId);
    if (hit && hit.until > Date.now()) return hit.perMinute;
    const ws = await getWorkspaceSettings(deps, { workspaceId, actorId, role: 'developer' });
    const perMinute = ws.apiRateLimitPerMinute ?? API_RATE_LIMIT_PER_MINUTE.default;
    limits.set(workspaceId, { perMinute, until: Date.now() + cacheMs });
    return perMinute;
  }

  return async (req, res, next) => {
    const scope = apiScopeOf(req);
    const limit = await limitOf(scope.workspaceId, scope.actorId);
    const used = await counter.consume(scope.actorId);
    const resetSeconds = Math.max(0, Math.ceil(used.msBeforeNext / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - used.consumedPoints)));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    res.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
    if (used.consumedPoints > limit) {
      res.setHeader('Retry-After', String(Math.max(1, resetSeconds)));
      throw new AppError('rate_limited', { message: `More than ${limit} requests in a minute with this API key` });
    }
    next();
  };
}
