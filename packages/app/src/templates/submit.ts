import { AppError, validateTemplate, type TemplateComponent } from '@mos/core';
import { getTemplate, getTemplateForUpdate, getWorkspace, updateTemplate, writeAuditLog, type TemplateRow } from '@mos/db';
import { isProviderError, isProviderNotConfigured, type CreateTemplateRequest, type ProviderError } from '@mos/provider';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

export interface ProviderAccount {
  wabaId: string;
  accessToken: string;
}

/** The workspace's business account and token, or 400 no_waba / no_access_token. */
export async function providerAccount(deps: AppDeps, workspaceId: string): Promise<ProviderAccount> {
  const ws = await getWorkspace(deps.db, workspaceId);
  if (!ws?.wabaId) throw new AppError('no_waba', { message: 'No business account (wabaId) is configured for this workspace' });
  const accessToken = await deps.vault.get(deps.db, workspaceId, 'provider-access-token');
  if (!accessToken) throw new AppError('no_access_token', { message: 'The workspace vault has no provider-access-token' });
  return { wabaId: ws.wabaId, accessToken };
}

/** What a submit sends; the TTL is optional so starter-pack entries (no row yet) fit too. */
type SubmittedTemplate = Pick<TemplateRow, 'name' | 'language' | 'category' | 'parameterFormat' | 'components'> & { messageSendTtlSeconds?: number | null };

/**
 * The creation request body: our row in the provider's field names. Components go as
 * stored, which is exactly what the caller sent (the strict schema refuses what it does
 * not model rather than dropping it); `message_send_ttl_seconds` only when set.
 */
export function providerTemplateBody(row: SubmittedTemplate): CreateTemplateRequest {
  const ttl = row.messageSendTtlSeconds;
  return {
    name: row.name,
    language: row.language,
    category: row.category,
    parameter_format: row.parameterFormat,
    components: row.components as TemplateComponent[],
    ...(ttl === null || ttl === undefined ? {} : { message_send_ttl_seconds: ttl }),
  };
}

/**
 * Creates the template at the provider, or edits it in place when the row already has a
 * provider id (a rejected template revised back to draft): the provider still holds the
 * rejected template under that id, and a second create of the same name and language
 * would be refused as a duplicate.
 */
export async function sendToProvider(
  deps: AppDeps,
  account: ProviderAccount,
  row: SubmittedTemplate & Pick<TemplateRow, 'providerTemplateId'>,
): Promise<string> {
  const { provider } = deps;
  const body = providerTemplateBody(row);
  if (row.providerTemplateId) {
    // Name and language identify the template at the provider and cannot change in an edit.
    const { name: _name, language: _language, ...edit } = body;
    await provider.editTemplate({ accessToken: account.accessToken }, row.providerTemplateId, edit);
    return row.providerTemplateId;
  }
  return (await provider.createTemplate(account, body)).id;
}

/**
 * Submits a draft. Order matters: the validator first (no provider call on failure), then
 * the workspace's account and token, then the provider. The provider call runs outside any
 * transaction; the status change is conditional on the row still being a draft, so two
 * concurrent submits cannot both win.
 *   - accepted: pending_approval, provider id stored, rejection_reason cleared;
 *   - 4xx: rejected with the provider's message, 400 provider_submit_failed, meta = raw error;
 *   - timeout/5xx: unchanged draft, 503 service_unavailable (retry later).
 */
export async function submitWorkspaceTemplate(deps: AppDeps, scope: Scope, id: string) {
  const row = await getTemplate(deps.db, scope.workspaceId, id);
  if (!row) throw new AppError('not_found', { message: 'template not found' });
  if (row.status !== 'draft') throw new AppError('conflict', { message: 'Only draft templates can be submitted' });
  const issues = validateTemplate({ ...row, components: row.components as TemplateComponent[] });
  if (issues.length > 0) throw new AppError('validation_failed', { message: 'The template does not pass validation', issues });
  const account = await providerAccount(deps, scope.workspaceId);

  let providerTemplateId: string;
  try {
    providerTemplateId = await sendToProvider(deps, account, row);
  } catch (err) {
    if (!isProviderError(err)) throw err;
    throw await recordProviderFailure(deps, scope, row, err);
  }
  await deps.db.transaction(async (tx) => {
    const current = await getTemplateForUpdate(tx, scope.workspaceId, id);
    if (current?.status !== 'draft') throw new AppError('conflict', { message: 'The template changed while it was being submitted' });
    await updateTemplate(tx, scope.workspaceId, id, { status: 'pending_approval', providerTemplateId, rejectionReason: null }, deps.clock.now());
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'template.submit',
      actorId: scope.actorId,
      targetId: id,
      details: { outcome: 'pending_approval', providerTemplateId },
    });
  });
  return { template: { id, status: 'pending_approval' as const, providerTemplateId } };
}

async function recordProviderFailure(deps: AppDeps, scope: Scope, row: TemplateRow, err: ProviderError): Promise<AppError> {
  if (isProviderNotConfigured(err)) return new AppError('service_unavailable', { message: err.message });
  if (err.retryable || err.status === null) {
    deps.log.warn({ templateId: row.id, status: err.status }, 'provider unavailable during template submit');
    return new AppError('service_unavailable', { message: `The provider is unavailable (${err.message}); try again`, meta: err.error ?? undefined });
  }
  const reason = err.userMessage;
  await deps.db.transaction(async (tx) => {
    // Only a row that is still the draft we sent becomes rejected (a concurrent submit may have won).
    if ((await getTemplateForUpdate(tx, scope.workspaceId, row.id))?.status !== 'draft') return;
    await updateTemplate(tx, scope.workspaceId, row.id, { status: 'rejected', rejectionReason: reason }, deps.clock.now());
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'template.submit',
      actorId: scope.actorId,
      targetId: row.id,
      details: { outcome: 'rejected', code: err.error?.code ?? null, subcode: err.error?.error_subcode ?? null },
    });
  });
  return new AppError('provider_submit_failed', { message: reason, meta: err.error ?? { message: err.message } });
}
