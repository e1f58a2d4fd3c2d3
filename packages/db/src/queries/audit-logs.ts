import { and, desc, eq } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { auditLogs } from '../schema/index';

export type AuditLogRow = typeof auditLogs.$inferSelect;

export interface AuditEntry {
  /** A caller-chosen id makes the write idempotent (retried activities); default: a new id. */
  id?: string;
  action: string;
  targetId?: string | null;
  actorId?: string | null;
  details?: Record<string, unknown>;
}

/** Call inside the same transaction as the change it records. */
export async function writeAuditLog(db: DbOrTx, workspaceId: string, entry: AuditEntry): Promise<AuditLogRow> {
  if (entry.id) {
    const [row] = await db
      .insert(auditLogs)
      .values({
        id: entry.id,
        workspaceId,
        action: entry.action,
        targetId: entry.targetId ?? null,
        actorId: entry.actorId ?? null,
        details: entry.details ?? null,
      })
      .onConflictDoNothing({ target: auditLogs.id })
      .returning();
    if (row) return row;
    const [existing] = await db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspaceId), eq(auditLogs.id, entry.id)));
    return existing!;
  }
  const [row] = await db
    .insert(auditLogs)
    .values({
      id: newId('audit'),
      workspaceId,
      action: entry.action,
      targetId: entry.targetId ?? null,
      actorId: entry.actorId ?? null,
      details: entry.details ?? null,
    })
    .returning();
  return row!;
}

export async function listAuditLogs(db: DbOrTx, workspaceId: string, opts: { limit: number; action?: string }): Promise<AuditLogRow[]> {
  const where = opts.action ? and(eq(auditLogs.workspaceId, workspaceId), eq(auditLogs.action, opts.action)) : eq(auditLogs.workspaceId, workspaceId);
  return db.select().from(auditLogs).where(where).orderBy(desc(auditLogs.createdAt), desc(auditLogs.id)).limit(opts.limit);
}
