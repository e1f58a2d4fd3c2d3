import { and, eq } from 'drizzle-orm';
import { mapProviderTemplateStatus, providerReason } from '@mos/core';
import type { DbOrTx } from '../client';
import { templates } from '../schema/index';
import { findSyncedTemplate, upsertSyncedTemplate, type SyncedTemplateRow } from './synced-templates';
import { findTemplateByKey, findTemplateByProviderId, type TemplateRow } from './templates';

export interface TemplateStatusUpdate {
  providerTemplateId: string;
  name: string;
  language: string;
  /** The provider's event: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, ... */
  event: string;
  /** The provider's reason (`NONE` when there is none), stored on rejection. */
  reason?: string | null;
  /** message_template_category from the event, used when no copy exists yet. */
  category?: string | null;
}

export interface TemplateStatusResult {
  /** The library row, when one matched (by provider id, else by name and language). */
  template: TemplateRow | null;
  /** Whether the library row changed: only pending_approval moves, to approved or rejected. */
  libraryChanged: boolean;
  synced: SyncedTemplateRow;
}

/**
 * Applies a `message_template_status_update` to both the library and the synced list in
 * one transaction, so /api/templates and /internal/templates agree. Idempotent: a repeated
 * or replayed event changes nothing more. The library only moves out of pending_approval
 * (a draft revised after a rejection is the operator's, and a late event must not undo it).
 */
export async function applyTemplateStatusUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: TemplateStatusUpdate,
  now: Date = new Date(),
): Promise<TemplateStatusResult> {
  const status = mapProviderTemplateStatus(update.event);
  const reason = status === 'rejected' ? providerReason(update.reason) ?? 'Rejected by the provider' : null;
  return db.transaction(async (tx) => {
    const byId = await findTemplateByProviderId(tx, workspaceId, update.providerTemplateId);
    const library = byId ?? (await findTemplateByKey(tx, workspaceId, update.name, update.language));
    let template = library ?? null;
    let libraryChanged = false;
    if (library && library.status === 'pending_approval' && (status === 'approved' || status === 'rejected')) {
      const [row] = await tx
        .update(templates)
        .set({ status, rejectionReason: reason, providerTemplateId: update.providerTemplateId, updatedAt: now })
        .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, library.id), eq(templates.status, 'pending_approval')))
        .returning();
      if (row) {
        template = row;
        libraryChanged = true;
      }
    }
    const existing = await findSyncedTemplate(tx, workspaceId, update.name, update.language);
    const synced = await upsertSyncedTemplate(
      tx,
      workspaceId,
      {
        providerTemplateId: update.providerTemplateId,
        name: update.name,
        language: update.language,
        category: existing?.category ?? update.category ?? library?.category ?? 'UTILITY',
        status,
        rejectionReason: reason,
        // First sight of this template: take the components we submitted, if we have them.
        ...(existing ? {} : { components: library?.components ?? [], parameterFormat: library?.parameterFormat ?? null }),
      },
      now,
    );
    return { template, libraryChanged, synced };
  });
}
