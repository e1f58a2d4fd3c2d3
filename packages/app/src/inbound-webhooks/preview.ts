import {
  AppError,
  applyMapping,
  sanitizeMappedRequest,
  validateMapping,
  type MappedRequest,
  type InboundRunIssue,
  type SanitizedMappedRequest,
} from '@mos/core';
import { getInboundWebhook } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { checkApprovedTemplate } from '../messages/approved-template';
import type { PreviewInboundWebhookInput } from './schemas';

export interface InboundPreview {
  ok: boolean;
  /** The request a live run would queue, with the sample's values (the caller's own data; nothing is stored). */
  request: MappedRequest | null;
  /** What a run would store instead: the same request without values. */
  stored: SanitizedMappedRequest | null;
  issues: InboundRunIssue[];
}

/**
 * What a saved configuration (or an unsaved mapping) makes of a sample payload, and every
 * reason it would not send: mapping issues, then the template's approval and parameter count,
 * as a live run would check them. Sends nothing, stores nothing.
 */
export async function previewInboundWebhook(deps: AppDeps, scope: Scope, input: PreviewInboundWebhookInput): Promise<InboundPreview> {
  const ws = scope.workspaceId;
  let mapping: unknown = input.mapping;
  let fixed = { templateName: input.templateName ?? null, templateLocale: input.templateLocale ?? null };
  if (input.id) {
    const row = await getInboundWebhook(deps.db, ws, input.id);
    if (!row) throw new AppError('not_found', { message: 'No inbound webhook with this id in the workspace' });
    mapping = input.mapping ?? row.mapping;
    fixed = { templateName: input.templateName ?? row.templateName, templateLocale: input.templateLocale ?? row.templateLocale };
  }
  if (mapping === undefined) throw new AppError('validation_failed', { message: 'Give a configuration id or a mapping' });

  const compiled = validateMapping(mapping, fixed);
  if (!compiled.ok) return { ok: false, request: null, stored: null, issues: compiled.issues };
  const mapped = applyMapping(compiled.mapping, input.samplePayload, fixed);
  const stored = sanitizeMappedRequest(compiled.mapping, mapped.ok ? mapped.request : mapped.partial);
  if (!mapped.ok) return { ok: false, request: null, stored, issues: mapped.issues };

  const { templateName, templateLocale, parameters } = mapped.request;
  const template = await checkApprovedTemplate(deps.db, ws, templateName, templateLocale, parameters.body.length);
  const issues: InboundRunIssue[] = template.ok ? [] : [{ code: template.code, message: template.message }];
  return { ok: issues.length === 0, request: mapped.request, stored, issues };
}
