import { and, eq } from 'drizzle-orm';
import { mapProviderTemplateStatus, providerReason } from '@mos/core';
import type { DbOrTx } from '../client';
import { syncedTemplates, templates, type TemplateStatusDetail } from '../schema/index';
import type { SyncedTemplateRow } from './synced-templates';
import { applySyncedTemplateChange } from './synced-template-updates';
import { findTemplateByKey, findTemplateByProviderId, type TemplateRow } from './templates';

/** `rejection_info` / `other_info` / `disable_info` of a status webhook. */
export interface TemplateStatusInfo {
  title?: string | null;
  description?: string | null;
  recommendation?: string | null;
  disableDate?: string | null;
}

export interface TemplateStatusUpdate {
  providerTemplateId: string;
  /** Null when the provider did not name the template: only a copy with this provider id can take it. */
  name: string | null;
  language: string | null;
  /** The provider's event: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, FLAGGED, ... */
  event: string;
  /** The provider's reason (`NONE` when there is none), stored on rejection. */
  reason?: string | null;
  /** message_template_category from the event, used when no copy exists yet. */
  category?: string | null;
  info?: TemplateStatusInfo | null;
  /**
   * The provider's time of the change. Omitted: the caller reports the present state (POST
   * /internal/templates), taken as of `now`. Null: a webhook without a time, which never
   * overrides a timed status.
   */
  occurredAt?: Date | null;
}

export interface TemplateStatusResult {
  /** The library row, when one matched (by provider id, else by name and language). */
  template: TemplateRow | null;
  /** Whether the library row changed: only pending_approval moves, to approved or rejected. */
  libraryChanged: boolean;
  /** The synced copy after the update; null only when the event named no template we can key. */
  synced: SyncedTemplateRow | null;
  /** False when the synced copy already held a newer status (a late or replayed delivery). */
  applied: boolean;
}

/**
 * Status-webhook events that are not statuses. LOCKED/UNLOCKED (the provider's `other_info`
 * "only included if template locked or unlocked") lock editing and leave the status as it was;
 * UNARCHIVED returns the template to a status the event does not name, so the copy says
 * `unknown` until the next sync reads it back.
 */
const KEEPS_STATUS = new Set(['LOCKED', 'UNLOCKED']);
const STATUS_NOT_STATED = new Set(['UNARCHIVED']);

/** The library's rejection text: the provider's code, then its explanation and advice when it gave them. */
function libraryRejection(code: string | null, info: TemplateStatusInfo | null | undefined): string {
  const parts = [code ?? 'Rejected by the provider'];
  const why = [info?.title, info?.description].filter((s): s is string => !!s).join(': ');
  if (why) parts.push(why);
  if (info?.recommendation) parts.push(`Recommendation: ${info.recommendation}`);
  return parts.join(': ');
}

/**
 * Applies a `message_template_status_update` to both the library and the synced list in
 * one transaction, so /api/templates and /internal/templates agree. Idempotent: a repeated
 * or replayed event changes nothing more; an older one than the copy's status is dropped
 * for the copy. The library only moves out of pending_approval (a draft revised after a
 * rejection is the operator's, and a late event must not undo it).
 */
export async function applyTemplateStatusUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: TemplateStatusUpdate & { name: string; language: string },
  now?: Date,
): Promise<TemplateStatusResult & { synced: SyncedTemplateRow }>;
export async function applyTemplateStatusUpdate(db: DbOrTx, workspaceId: string, update: TemplateStatusUpdate, now?: Date): Promise<TemplateStatusResult>;
export async function applyTemplateStatusUpdate(
  db: DbOrTx,
  workspaceId: string,
  update: TemplateStatusUpdate,
  now: Date = new Date(),
): Promise<TemplateStatusResult> {
  const status = mapProviderTemplateStatus(update.event);
  const event = update.event.toUpperCase();
  const code = providerReason(update.reason);
  const at = update.occurredAt === undefined ? now : update.occurredAt;
  const detail: TemplateStatusDetail = {
    event: update.event,
    reason: code,
    title: update.info?.title ?? null,
    description: update.info?.description ?? null,
    recommendation: update.info?.recommendation ?? null,
    disableDate: update.info?.disableDate ?? null,
  };
  return db.transaction(async (tx) => {
    const byId = await findTemplateByProviderId(tx, workspaceId, update.providerTemplateId);
    const library =
      byId ?? (update.name !== null && update.language !== null ? await findTemplateByKey(tx, workspaceId, update.name, update.language) : undefined);
    let template = library ?? null;
    let libraryChanged = false;
    if (library && library.status === 'pending_approval' && (status === 'approved' || status === 'rejected')) {
      const [row] = await tx
        .update(templates)
        .set({
          status,
          rejectionReason: status === 'rejected' ? libraryRejection(code, update.info) : null,
          providerTemplateId: update.providerTemplateId,
          updatedAt: now,
        })
        .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, library.id), eq(templates.status, 'pending_approval')))
        .returning();
      if (row) {
        template = row;
        libraryChanged = true;
      }
    }
    const { synced, applied } = await applySyncedTemplateChange(
      tx,
      workspaceId,
      update,
      {
        at,
        // Found above by the same keys: the copy's seed need not look it up again.
        library: library ?? null,
        stamp: syncedTemplates.statusChangedAt,
        patch: (row) => ({
          ...(KEEPS_STATUS.has(event)
            ? {}
            : {
                status: STATUS_NOT_STATED.has(event) ? 'unknown' : status,
                rejectionReason: status === 'rejected' ? (code ?? 'Rejected by the provider') : null,
              }),
          statusDetail: detail,
          statusChangedAt: at,
          // A copy seeded by this event takes the event's category; a known one keeps its own
          // (category changes arrive as template_category_update).
          ...(row.category === 'UNKNOWN' && update.category ? { category: update.category } : {}),
        }),
      },
      now,
    );
    return { template, libraryChanged, synced, applied };
  });
}
