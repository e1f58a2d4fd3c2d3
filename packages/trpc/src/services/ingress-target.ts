import { findProviderIngressWorkspace } from '@mos/db';
import type { AppDeps } from '../deps';

/** Where provider webhooks go: the configured workspace and its signing secret (if any). */
export interface IngressTarget {
  workspaceId: string;
  signingSecret: string | undefined;
}

export interface IngressResolver {
  /** null when no workspace is marked for provider ingress; throws when the store fails. */
  resolve(): Promise<IngressTarget | null>;
  /** Drops the cached target (tests, or after changing configuration in-process). */
  invalidate(): void;
}

/**
 * Resolves the ingress workspace from stored configuration only (never the payload) and
 * caches it with its secret for `ttlMs`, so the hot path skips a query and an AES-GCM
 * decryption per request; a rotated secret takes effect within the TTL. Concurrent misses
 * share one lookup. Only a found target is cached: "not configured" and failures are
 * looked up again on the next request, so configuring the workspace takes effect at once.
 */
export function createIngressResolver(deps: Pick<AppDeps, 'db' | 'vault'>, ttlMs: number, now: () => number = Date.now): IngressResolver {
  let cached: { target: IngressTarget; until: number } | undefined;
  let inflight: Promise<IngressTarget | null> | undefined;

  const load = async (): Promise<IngressTarget | null> => {
    const ws = await findProviderIngressWorkspace(deps.db);
    if (!ws) return null;
    const signingSecret = await deps.vault.get(deps.db, ws.id, 'webhook-signing-secret');
    return { workspaceId: ws.id, signingSecret };
  };

  return {
    async resolve() {
      if (cached && cached.until > now()) return cached.target;
      inflight ??= load()
        .then((target) => {
          if (target && ttlMs > 0) cached = { target, until: now() + ttlMs };
          return target;
        })
        .finally(() => {
          inflight = undefined;
        });
      return inflight;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
