import { TEMPLATE_CHANGE_FIELDS, systemClock, type Clock, type TemplateUpdatedEvent } from '@mos/core';
import {
  applyTemplateCategoryUpdate,
  applyTemplateComponentsUpdate,
  applyTemplateQualityUpdate,
  applyTemplateStatusUpdate,
  recordAccountEvent,
  type AccountEventInput,
  type DbOrTx,
} from '@mos/db';
import { familyTime, type FamilyEffects } from './family-effects';

/** A change naming no template we can key (no copy with its id, no name and language): recorded, visible to operators. */
function unattachedTemplateChange(family: TemplateUpdatedEvent, at: Date | null): AccountEventInput {
  const what =
    family.change === 'status'
      ? `status ${family.event}`
      : family.change === 'quality'
        ? `quality ${family.previousScore ?? '?'} -> ${family.newScore}`
        : family.change === 'category'
          ? family.correctCategory
            ? `category to become ${family.correctCategory}`
            : `category ${family.previousCategory ?? '?'} -> ${family.newCategory}`
          : 'components edited';
  return {
    field: TEMPLATE_CHANGE_FIELDS[family.change],
    event: family.change === 'status' ? family.event : family.change,
    occurredAt: at,
    summary: `Template ${family.providerTemplateId}${family.name ? ` (${family.name}${family.language ? `, ${family.language}` : ''})` : ''}: ${what}; not in the synced list, recorded only (the next template sync adds it)`,
    value: family,
    errors: [],
    accountId: family.accountId,
    phoneNumberId: null,
    displayPhoneNumber: null,
  };
}

/**
 * The pipeline's `template.updated` effect, one query per change kind (packages/db
 * template-status.ts and synced-template-updates.ts): status moves the library out of
 * pending_approval and updates the synced copy with its detail; quality, category and
 * components update the synced copy. Each is idempotent and keeps the newest change by the
 * provider's time. A change that cannot be attached to any copy is recorded as an account
 * event instead of being lost. Every write goes through the caller's executor `db`.
 */
export function createTemplateEffects(deps: { clock?: Clock } = {}): Pick<FamilyEffects, 'applyTemplateUpdate'> {
  const clock = deps.clock ?? systemClock;
  return {
    async applyTemplateUpdate(db: DbOrTx, workspaceId: string, family: TemplateUpdatedEvent): Promise<void> {
      const now = clock.now();
      const at = familyTime(family.occurredAt);
      const ref = { providerTemplateId: family.providerTemplateId, name: family.name, language: family.language };
      let synced: unknown;
      switch (family.change) {
        case 'status':
          ({ synced } = await applyTemplateStatusUpdate(
            db,
            workspaceId,
            { ...ref, event: family.event, reason: family.reason, category: family.category, info: family.detail, occurredAt: at },
            now,
          ));
          break;
        case 'quality':
          ({ synced } = await applyTemplateQualityUpdate(
            db,
            workspaceId,
            { ...ref, previousScore: family.previousScore, newScore: family.newScore, occurredAt: at },
            now,
          ));
          break;
        case 'category':
          ({ synced } = await applyTemplateCategoryUpdate(
            db,
            workspaceId,
            {
              ...ref,
              previousCategory: family.previousCategory,
              newCategory: family.newCategory,
              correctCategory: family.correctCategory,
              effectiveAt: familyTime(family.effectiveAt),
              occurredAt: at,
            },
            now,
          ));
          break;
        case 'components':
          ({ synced } = await applyTemplateComponentsUpdate(db, workspaceId, { ...ref, components: family.components, occurredAt: at }, now));
          break;
      }
      if (!synced) await recordAccountEvent(db, workspaceId, unattachedTemplateChange(family, at), now);
    },
  };
}
