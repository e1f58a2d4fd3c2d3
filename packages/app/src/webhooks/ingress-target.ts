import { isWorkspaceSlug } from '@mos/core';
import { findProviderIngressWorkspace, findWorkspaceBySlug, type WorkspaceRow } from '@mos/db';
import type { AppDeps } from '../deps';

/** Where a provider webhook goes: the workspace and its ingress secrets (if set). */
export interface IngressTarget {
  workspaceId: string;
  signingSecret: string | undefined;
  verifyToken: string | undefined;
}

/**
 * Which workspace a provider path feeds. `shared` is `/webhooks/messaging|provider`: the
 * workspace the platform admin marked (`mos ingress set`). `slug` is the per-workspace URL
 * `/webhooks/messaging/{slug}`: that workspace, whoever holds the shared mark.
 */
export type IngressRoute = { kind: 'shared' } | { kind: 'slug'; slug: string };

export interface IngressResolver {
  /** null when the route leads to no workspace (not configured, unknown slug); throws when the store fails. */
  resolve(route?: IngressRoute): Promise<IngressTarget | null>;
  /** Drops every cached target (tests, or after changing configuration in-process). */
  invalidate(): void;
}

/** Bounds the cache: one entry per workspace that received webhooks within the TTL. */
const MAX_CACHED = 10_000;

/**
 * Resolves from stored configuration only (never the payload) and caches each found target
 * with its secrets for `ttlMs`, so the hot path skips a query and two AES-GCM decryptions
 * per request; a rotated secret takes effect within the TTL. Concurrent misses for one
 * route share one lookup. Only found targets are cached: "not configured" and failures are
 * looked up again next time, so configuring a workspace takes effect at once (the
 * per-source rate limit bounds what a flood of unknown slugs costs).
 */
export function createIngressResolver(deps: Pick<AppDeps, 'db' | 'vault'>, ttlMs: number, now: () => number = Date.now): IngressResolver {
  const cached = new Map<string, { target: IngressTarget; until: number }>();
  const inflight = new Map<string, Promise<IngressTarget | null>>();

  const load = async (route: IngressRoute): Promise<IngressTarget | null> => {
    let ws: WorkspaceRow | undefined;
    if (route.kind === 'shared') ws = await findProviderIngressWorkspace(deps.db);
    else if (isWorkspaceSlug(route.slug)) ws = await findWorkspaceBySlug(deps.db, route.slug);
    if (!ws) return null;
    const [signingSecret, verifyToken] = await Promise.all([
      deps.vault.get(deps.db, ws.id, 'webhook-signing-secret'),
      deps.vault.get(deps.db, ws.id, 'provider-verify-token'),
    ]);
    return { workspaceId: ws.id, signingSecret, verifyToken };
  };

  return {
    async resolve(route = { kind: 'shared' }) {
      const key = route.kind === 'shared' ? '' : `slug:${route.slug}`;
      const hit = cached.get(key);
      if (hit && hit.until > now()) return hit.target;
      let pending = inflight.get(key);
      if (!pending) {
        pending = load(route)
          .then((target) => {
            if (target && ttlMs > 0) {
              if (cached.size >= MAX_CACHED) cached.delete(cached.keys().next().value!);
              cached.set(key, { target, until: now() + ttlMs });
            }
            return target;
          })
          .finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
    invalidate() {
      cached.clear();
    },
  };
}
