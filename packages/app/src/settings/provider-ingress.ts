import { AppError } from '@mos/core';
import {
  clearProviderIngressWorkspace,
  findProviderIngressWorkspace,
  findWorkspaceBySlug,
  setProviderIngressWorkspace,
  writeAuditLog,
  type DbOrTx,
} from '@mos/db';
import type { AppDeps } from '../deps';

/**
 * Which workspace the shared provider paths (`/webhooks/messaging`, `/webhooks/provider`)
 * resolve to. A platform decision: only the admin CLI reaches these functions (no tenant
 * procedure or route does), because whoever holds the mark receives every delivery sent
 * to the shared URLs. Tenants register their own `/webhooks/messaging/{slug}` instead.
 * Both workspaces' audit logs record a move; neither learns the other's id.
 */
export interface ProviderIngressView {
  workspace: { id: string; slug: string } | null;
}

export async function showProviderIngress(deps: Pick<AppDeps, 'db'>): Promise<ProviderIngressView> {
  const ws = await findProviderIngressWorkspace(deps.db);
  return { workspace: ws ? { id: ws.id, slug: ws.slug } : null };
}

/** Inside the caller's transaction (bootstrap uses it too); a no-op when already set. */
export async function assignProviderIngress(tx: DbOrTx, workspace: { id: string }, actorId: string): Promise<void> {
  const previous = await findProviderIngressWorkspace(tx);
  if (previous?.id === workspace.id) return;
  if (previous) await writeAuditLog(tx, previous.id, { action: 'platform.ingress.unset', actorId, targetId: previous.id });
  await setProviderIngressWorkspace(tx, workspace.id);
  await writeAuditLog(tx, workspace.id, { action: 'platform.ingress.set', actorId, targetId: workspace.id });
}

export async function setProviderIngress(deps: Pick<AppDeps, 'db'>, slug: string, actorId = 'cli'): Promise<ProviderIngressView> {
  return deps.db.transaction(async (tx) => {
    const ws = await findWorkspaceBySlug(tx, slug);
    if (!ws) throw new AppError('not_found', { message: `no workspace with slug "${slug}"` });
    await assignProviderIngress(tx, ws, actorId);
    return { workspace: { id: ws.id, slug: ws.slug } };
  });
}

/** The shared paths answer 503 provider_ingress_not_configured afterwards (per-workspace URLs keep working). */
export async function clearProviderIngress(deps: Pick<AppDeps, 'db'>, actorId = 'cli'): Promise<ProviderIngressView> {
  return deps.db.transaction(async (tx) => {
    const previous = await findProviderIngressWorkspace(tx);
    if (previous) {
      await clearProviderIngressWorkspace(tx);
      await writeAuditLog(tx, previous.id, { action: 'platform.ingress.unset', actorId, targetId: previous.id });
    }
    return { workspace: null };
  });
}
