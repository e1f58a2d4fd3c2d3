import { eq } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { workspaces } from '../schema/index';

export type WorkspaceRow = typeof workspaces.$inferSelect;

export async function getWorkspace(db: DbOrTx, workspaceId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row;
}

/** Slugs come from admin input (CLI) or URLs; lookups by slug are explicitly global. */
export async function findWorkspaceBySlug(db: DbOrTx, slug: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.slug, slug));
  return row;
}

/** The workspace the provider webhook paths resolve to: stored configuration, never the payload. */
export async function findProviderIngressWorkspace(db: DbOrTx): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.providerIngress, true));
  return row;
}

export interface WorkspaceSettings {
  name?: string;
  wabaId?: string | null;
  phoneNumberId?: string | null;
  dataRetentionDays?: number | null;
  llmBaseUrl?: string | null;
  llmModel?: string | null;
  apiRateLimitPerMinute?: number | null;
  throughputUpgraded?: boolean;
}

export async function upsertWorkspace(db: DbOrTx, slug: string, settings: WorkspaceSettings = {}): Promise<{ workspace: WorkspaceRow; created: boolean }> {
  const existing = await findWorkspaceBySlug(db, slug);
  if (existing) {
    const patch = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    if (Object.keys(patch).length === 0) return { workspace: existing, created: false };
    const [row] = await db
      .update(workspaces)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(workspaces.id, existing.id))
      .returning();
    return { workspace: row!, created: false };
  }
  const id = newId('workspace');
  const [row] = await db
    .insert(workspaces)
    .values({
      id,
      workspaceId: id,
      slug,
      name: settings.name ?? slug,
      wabaId: settings.wabaId ?? null,
      phoneNumberId: settings.phoneNumberId ?? null,
      dataRetentionDays: settings.dataRetentionDays ?? null,
    })
    .returning();
  return { workspace: row!, created: true };
}

/** Marks one workspace as the provider-ingress target, clearing the mark elsewhere. */
export async function setProviderIngressWorkspace(db: DbOrTx, workspaceId: string): Promise<void> {
  await db.update(workspaces).set({ providerIngress: false }).where(eq(workspaces.providerIngress, true));
  await db.update(workspaces).set({ providerIngress: true, updatedAt: new Date() }).where(eq(workspaces.id, workspaceId));
}

export async function clearProviderIngressWorkspace(db: DbOrTx): Promise<void> {
  await db.update(workspaces).set({ providerIngress: false, updatedAt: new Date() }).where(eq(workspaces.providerIngress, true));
}
