import { z } from 'zod';
import { LIMITS, pageSchema } from '@mos/core';
import { listAuditLogs, type AuditLogRow } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

/** Spec: "Audit log entry" (GET /internal/audit-logs). */
export const auditLogView = z.object({
  id: z.string(),
  action: z.string(),
  targetId: z.string().nullable(),
  actorId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditLogView = z.infer<typeof auditLogView>;

export function toAuditLogView(a: AuditLogRow): AuditLogView {
  return { id: a.id, action: a.action, targetId: a.targetId, actorId: a.actorId, details: a.details ?? null, createdAt: a.createdAt.toISOString() };
}

export const listAuditLogsInput = pageSchema(LIMITS.auditLogs);

/** GET /internal/audit-logs, tRPC auditLogs.list: newest first, the caller's workspace only. */
export async function listWorkspaceAuditLogs(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listAuditLogsInput> = {},
): Promise<{ auditLogEntries: AuditLogView[] }> {
  const { limit } = listAuditLogsInput.parse(input);
  const rows = await listAuditLogs(deps.db, scope.workspaceId, { limit });
  return { auditLogEntries: rows.map(toAuditLogView) };
}
