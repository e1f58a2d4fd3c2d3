import { AppError, findPlaceholders, type TemplateRef } from '@mos/core';
import { findSyncedTemplate, type DbOrTx } from '@mos/db';

/**
 * Only an approved template, with as many body parameters as its body has placeholders (the
 * provider's 132000 otherwise, after queueing: better refused now).
 */
export async function requireApprovedTemplate(db: DbOrTx, ws: string, t: TemplateRef): Promise<void> {
  const row = await findSyncedTemplate(db, ws, t.name, t.language);
  if (!row || row.status !== 'approved') {
    throw new AppError('template_not_approved', {
      message: row ? `Template ${t.name} (${t.language}) is ${row.status}` : `No template ${t.name} (${t.language}) in this workspace`,
    });
  }
  const expected = bodyParameterCount(row.components);
  const given = t.parameters?.body?.length ?? 0;
  if (expected !== given) {
    throw new AppError('validation_failed', {
      message: `Template ${t.name} takes ${expected} body parameter(s); ${given} given`,
      issues: [{ path: ['template', 'parameters', 'body'], message: `expected ${expected} parameter(s), got ${given}` }],
    });
  }
}

/** How many body parameters a synced template takes: its distinct body placeholders. */
export function bodyParameterCount(components: unknown[]): number {
  const body = (components as { type?: string; text?: string }[]).find((c) => c.type?.toUpperCase() === 'BODY');
  return body?.text ? new Set(findPlaceholders(body.text).map((p) => p.inner)).size : 0;
}
