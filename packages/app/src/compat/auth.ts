import { constantTimeEqual } from '@mos/core';
import { findProviderIngressWorkspace } from '@mos/db';
import type { AppDeps } from '../deps';
import { authenticateApiKey } from '../settings/api-keys';
import { compatError, type CompatAnswer } from './answers';

/** Who called a compat path, and the workspace the call belongs to. */
export interface CompatCaller {
  workspaceId: string;
  /** The API key id, or `partner-secret`. */
  actorId: string;
  via: 'api_key' | 'partner_secret';
}

/**
 * Legacy callers authenticate with a workspace API key in `X-API-Key` (every compat path; the
 * key's workspace), or, on the partner-event path only, with `?secret=` matching the ingress
 * workspace's `partner-webhook-secret` (vault; the PARTNER_WEBHOOK_SECRET fallback outside
 * production). A secret that is sent is always checked, in constant time, even beside a key.
 * Anything else is 401 and nothing is stored.
 */
export async function authenticateCompat(
  deps: AppDeps,
  input: { apiKey: string | undefined; secret: unknown; partnerPath: boolean },
): Promise<{ ok: true; caller: CompatCaller } | { ok: false; answer: CompatAnswer }> {
  const unauthorized = (message: string) => ({ ok: false as const, answer: compatError(401, message) });
  const secretSent = input.partnerPath && input.secret !== undefined;
  if (secretSent && typeof input.secret !== 'string') return unauthorized('The secret query parameter must be given once');
  let ingressWorkspaceId: string | null = null;
  if (secretSent) {
    const ingress = await findProviderIngressWorkspace(deps.db);
    const configured = ingress ? await deps.vault.get(deps.db, ingress.id, 'partner-webhook-secret') : undefined;
    if (!ingress || !configured || !constantTimeEqual(input.secret as string, configured)) return unauthorized('The secret does not match');
    ingressWorkspaceId = ingress.id;
  }
  if (input.apiKey !== undefined) {
    const key = await authenticateApiKey(deps, input.apiKey);
    if (!key) return unauthorized('The API key is not valid');
    return { ok: true, caller: { workspaceId: key.workspaceId, actorId: key.keyId, via: 'api_key' } };
  }
  if (ingressWorkspaceId) return { ok: true, caller: { workspaceId: ingressWorkspaceId, actorId: 'partner-secret', via: 'partner_secret' } };
  return unauthorized(
    input.partnerPath ? 'Send an API key in the X-API-Key header or the partner secret in ?secret=' : 'Send an API key in the X-API-Key header',
  );
}
