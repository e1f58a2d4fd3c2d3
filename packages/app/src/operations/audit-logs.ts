import { z } from 'zod';
import { listAuditLogs } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { toAuditLogView } from '../webhooks/views';

export const listAuditLogsInput = z.object({ limit: z.number().int().min(1).max(100).default(25) });

/** GET /internal/audit-logs: newest first, the caller's workspace only. */
export async function listWorkspaceAuditLogs(deps: AppDeps, scope: Scope, input: z.input<typeof listAuditLogsInput> = {}) {
  const { limit } = listAuditLogsInput.parse(input);
  const rows = await listAuditLogs(deps.db, scope.workspaceId, { limit });
  return { auditLogEntries: rows.map(toAuditLogView) };
}
