import { AppError, findPlaceholders, type TemplateRef } from '@mos/core';
import { findSyncedTemplate, type DbOrTx, type SyncedTemplateRow } from '@mos/db';

export type ApprovedTemplateCheck =
  | { ok: true; template: SyncedTemplateRow }
  | { ok: false; code: 'template_not_approved'; message: string }
  | { ok: false; code: 'body_parameter_count'; message: string; expected: number; given: number };

/**
 * Whether a template can be sent with `given` body parameters: approved, and taking exactly as
 * many as its body has placeholders (the provider's 132000 otherwise, after queueing: better
 * refused now). The one rule behind sends, inbound-webhook mappings and their preview.
 */
export async function checkApprovedTemplate(db: DbOrTx, ws: string, name: string, language: string, given: number): Promise<ApprovedTemplateCheck> {
  const row = await findSyncedTemplate(db, ws, name, language);
  if (!row || row.status !== 'approved') {
    const message = row ? `Template ${name} (${language}) is ${row.status}` : `No template ${name} (${language}) in this workspace`;
    return { ok: false, code: 'template_not_approved', message };
  }
  const expected = bodyParameterCount(row.components);
  if (expected !== given) {
    return { ok: false, code: 'body_parameter_count', message: `Template ${name} takes ${expected} body parameter(s); ${given} given`, expected, given };
  }
  return { ok: true, template: row };
}

/** checkApprovedTemplate for a send request: 422 template_not_approved, or 400 validation_failed on the count. */
export async function requireApprovedTemplate(db: DbOrTx, ws: string, t: TemplateRef): Promise<SyncedTemplateRow> {
  const check = await checkApprovedTemplate(db, ws, t.name, t.language, t.parameters?.body?.length ?? 0);
  if (check.ok) return check.template;
  if (check.code === 'template_not_approved') throw new AppError('template_not_approved', { message: check.message });
  throw new AppError('validation_failed', {
    message: check.message,
    issues: [{ path: ['template', 'parameters', 'body'], message: `expected ${check.expected} parameter(s), got ${check.given}` }],
  });
}

/** How many body parameters a synced template takes: its distinct body placeholders. */
function bodyParameterCount(components: unknown[]): number {
  const body = (components as { type?: string; text?: string }[]).find((c) => c.type?.toUpperCase() === 'BODY');
  return body?.text ? new Set(findPlaceholders(body.text).map((p) => p.inner)).size : 0;
}
