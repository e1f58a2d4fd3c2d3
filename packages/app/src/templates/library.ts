import { AppError, derivePreview, deriveVariables, normalizeTemplateName, validateTemplate, type ErrorCode } from '@mos/core';
import {
  deleteDraftTemplate,
  getTemplate,
  getTemplateForUpdate,
  insertTemplate,
  isUniqueViolation,
  listTemplates,
  updateTemplate,
  writeAuditLog,
  type TemplatePatch,
} from '@mos/db';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import {
  toTemplateView,
  type CreateTemplateInput,
  type TemplateView,
  type UpdateTemplateInput,
  type validateTemplateInput,
  type validateTemplateOutput,
} from './views';

export * from './views';
export * from './submit';
export * from './starter-pack';

const notFound = () => new AppError('not_found', { message: 'template not found' });

function normalizedName(raw: string, code: ErrorCode): string {
  const name = normalizeTemplateName(raw);
  if (name === '') throw new AppError(code, { message: 'name is required' });
  return name;
}

function duplicate(code: ErrorCode, name: string, language: string): AppError {
  return new AppError(code, { message: `A template named ${name} already exists in ${language}` });
}

/** GET /api/templates, tRPC templates.list: the whole library, most recently updated first. */
export async function listWorkspaceTemplates(deps: AppDeps, scope: Scope): Promise<{ templates: TemplateView[] }> {
  return { templates: (await listTemplates(deps.db, scope.workspaceId)).map(toTemplateView) };
}

export async function getWorkspaceTemplate(deps: AppDeps, scope: Scope, id: string): Promise<TemplateView> {
  const row = await getTemplate(deps.db, scope.workspaceId, id);
  if (!row) throw notFound();
  return toTemplateView(row);
}

/** A new draft. Not sent to the provider; the name is normalized (lower case, `_`). */
export async function createWorkspaceTemplate(deps: AppDeps, scope: Scope, input: CreateTemplateInput): Promise<TemplateView> {
  const name = normalizedName(input.name, 'create_failed');
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await insertTemplate(tx, scope.workspaceId, { ...input, name }, deps.clock.now());
      await writeAuditLog(tx, scope.workspaceId, {
        action: 'template.create',
        actorId: scope.actorId,
        targetId: row.id,
        details: { name, language: input.language },
      });
      return toTemplateView(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate('create_failed', name, input.language);
    throw err;
  }
}

/**
 * Patches a draft: sent fields change, unsent fields stay. Anything but a draft is 409
 * (a rejected template returns to draft through `reviseWorkspaceTemplate` first). A draft
 * that was already submitted once (it has a provider id) keeps its name and language: the
 * provider identifies the template by them.
 */
export async function updateWorkspaceTemplate(deps: AppDeps, scope: Scope, input: UpdateTemplateInput): Promise<TemplateView> {
  const { id, ...fields } = input;
  const patch: TemplatePatch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (patch.name !== undefined) patch.name = normalizedName(patch.name, 'update_failed');
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await getTemplateForUpdate(tx, scope.workspaceId, id);
      if (!row) throw notFound();
      if (row.status !== 'draft') throw new AppError('conflict', { message: 'Only draft templates can be edited' });
      const renamed = (patch.name !== undefined && patch.name !== row.name) || (patch.language !== undefined && patch.language !== row.language);
      if (row.providerTemplateId && renamed) {
        throw new AppError('update_failed', { message: 'name and language cannot change once a template has been submitted' });
      }
      // An edit sends the TTL only when it has one, so clearing it would leave the provider's
      // value in place while our row says "provider default": set a value instead.
      if (row.providerTemplateId && patch.messageSendTtlSeconds === null && row.messageSendTtlSeconds !== null) {
        throw new AppError('update_failed', { message: 'messageSendTtlSeconds cannot be cleared once a template has been submitted; set a value instead' });
      }
      const updated = await updateTemplate(tx, scope.workspaceId, id, patch, deps.clock.now());
      await writeAuditLog(tx, scope.workspaceId, { action: 'template.update', actorId: scope.actorId, targetId: id, details: { fields: Object.keys(patch) } });
      return toTemplateView(updated!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate('update_failed', patch.name ?? '(unchanged name)', patch.language ?? '(unchanged language)');
    throw err;
  }
}

/** Drafts only: submitted templates are retained for audit (409 otherwise). */
export async function deleteWorkspaceTemplate(deps: AppDeps, scope: Scope, id: string): Promise<{ ok: true }> {
  await deps.db.transaction(async (tx) => {
    const row = await getTemplateForUpdate(tx, scope.workspaceId, id);
    if (!row) throw notFound();
    if (row.status !== 'draft' || !(await deleteDraftTemplate(tx, scope.workspaceId, id))) {
      throw new AppError('conflict', { message: 'Only draft templates can be deleted' });
    }
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'template.delete',
      actorId: scope.actorId,
      targetId: id,
      details: { name: row.name, language: row.language },
    });
  });
  return { ok: true };
}

/**
 * rejected -> draft, clearing rejection_reason, so the operator can fix and resubmit. The
 * provider id is kept: the provider still holds the rejected template under it.
 */
export async function reviseWorkspaceTemplate(deps: AppDeps, scope: Scope, id: string): Promise<TemplateView> {
  return deps.db.transaction(async (tx) => {
    const row = await getTemplateForUpdate(tx, scope.workspaceId, id);
    if (!row) throw notFound();
    if (row.status !== 'rejected') throw new AppError('conflict', { message: 'Only rejected templates can be revised' });
    const updated = await updateTemplate(tx, scope.workspaceId, id, { status: 'draft', rejectionReason: null }, deps.clock.now());
    await writeAuditLog(tx, scope.workspaceId, { action: 'template.revise', actorId: scope.actorId, targetId: id });
    return toTemplateView(updated!);
  });
}

/** The validator on demand (live editor feedback). Pure: reads nothing, writes nothing. */
export function validateTemplateDraft(input: z.output<typeof validateTemplateInput>): z.infer<typeof validateTemplateOutput> {
  const name = normalizeTemplateName(input.name);
  const issues = validateTemplate({ ...input, name });
  return {
    valid: issues.length === 0,
    name,
    issues,
    variables: deriveVariables(input.components, input.category),
    preview: derivePreview(input.components, input.category),
  };
}
