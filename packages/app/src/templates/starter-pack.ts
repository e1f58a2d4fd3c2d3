import { AppError, isAppError, STARTER_PACK, type StarterTemplate } from '@mos/core';
import { findTemplateByKey, upsertTemplateByKey, writeAuditLog } from '@mos/db';
import { isProviderError, isProviderNotConfigured } from '@mos/provider';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { providerAccount, sendToProvider, type ProviderAccount } from './submit';
import type { StarterPackResult } from './views';

type Entry = StarterPackResult['results'][number];

/**
 * Submits the 13-template starter pack and upserts each row on (workspace, name, language).
 * Safe to repeat: an entry whose row already holds a provider id and is pending or approved
 * is reported `submitted` again without a second provider call (a re-create would be a
 * duplicate at the provider); one the provider rejected is edited in place. Each entry commits on its own, so one failure never undoes
 * the others; a provider or database error marks that entry `error` (row `rejected`).
 */
export async function seedStarterPack(deps: AppDeps, scope: Scope): Promise<StarterPackResult> {
  const account = await providerAccount(deps, scope.workspaceId);
  const results: Entry[] = [];
  for (const entry of STARTER_PACK) results.push(await seedOne(deps, scope, account, entry));
  const submitted = results.filter((r) => r.status === 'submitted').length;
  return { total: results.length, submitted, errored: results.length - submitted, results };
}

async function seedOne(deps: AppDeps, scope: Scope, account: ProviderAccount, entry: StarterTemplate): Promise<Entry> {
  const base = { name: entry.name, language: entry.language, category: entry.category };
  try {
    const existing = await findTemplateByKey(deps.db, scope.workspaceId, entry.name, entry.language);
    if (existing?.providerTemplateId && (existing.status === 'pending_approval' || existing.status === 'approved')) {
      return { ...base, status: 'submitted', providerTemplateId: existing.providerTemplateId };
    }
    let providerTemplateId: string | undefined;
    let error: string | undefined;
    try {
      providerTemplateId = await sendToProvider(deps, account, { ...entry, providerTemplateId: existing?.providerTemplateId ?? null });
    } catch (err) {
      if (!isProviderError(err)) throw err;
      // No provider at all is not this template's rejection: the whole call fails below.
      if (isProviderNotConfigured(err)) throw new AppError('service_unavailable', { message: err.message });
      error = err.userMessage;
    }
    await deps.db.transaction(async (tx) => {
      const row = await upsertTemplateByKey(
        tx,
        scope.workspaceId,
        {
          ...entry,
          status: providerTemplateId ? 'pending_approval' : 'rejected',
          providerTemplateId: providerTemplateId ?? existing?.providerTemplateId ?? null,
          rejectionReason: error ?? null,
        },
        deps.clock.now(),
      );
      await writeAuditLog(tx, scope.workspaceId, {
        action: 'template.seed',
        actorId: scope.actorId,
        targetId: row.id,
        details: { outcome: providerTemplateId ? 'submitted' : 'error' },
      });
    });
    return providerTemplateId ? { ...base, status: 'submitted', providerTemplateId } : { ...base, status: 'error', error: error! };
  } catch (err) {
    if (isAppError(err)) throw err;
    deps.log.error({ err, template: entry.name, language: entry.language }, 'starter pack entry failed');
    return { ...base, status: 'error', error: 'Could not store the template' };
  }
}
