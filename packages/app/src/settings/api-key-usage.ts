import { touchApiKeyLastUsed } from '@mos/db';
import type { AppDeps } from '../deps';

/** How stale `last_used_at` may be: it says "in use lately", not an access log. */
export const API_KEY_USAGE_RESOLUTION_MS = 60_000;

export interface ApiKeyUsageRecorder {
  /** Notes a request made with the key; returns at once and never throws. */
  record(workspaceId: string, keyId: string): void;
}

/**
 * Stamps `api_keys.last_used_at` at most once a minute per key: this process skips keys it
 * stamped within the minute, and the statement itself skips keys another process did. The
 * write is off the request's path: a failure is logged and retried on the key's next request,
 * never answered to the caller.
 */
export function createApiKeyUsageRecorder(deps: Pick<AppDeps, 'db' | 'clock' | 'log'>): ApiKeyUsageRecorder {
  const stamped = new Map<string, number>();
  return {
    record(workspaceId, keyId) {
      const now = deps.clock.now();
      const last = stamped.get(keyId);
      if (last !== undefined && now.getTime() - last < API_KEY_USAGE_RESOLUTION_MS) return;
      stamped.set(keyId, now.getTime());
      touchApiKeyLastUsed(deps.db, workspaceId, keyId, now).catch((err: unknown) => {
        stamped.delete(keyId);
        deps.log.warn({ err, keyId }, 'api key last-used stamp failed');
      });
    },
  };
}
