import { and, desc, eq } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { templates } from '../schema/index';

export type TemplateRow = typeof templates.$inferSelect;
type Values = typeof templates.$inferInsert;
export type TemplateFields = Pick<Values, 'name' | 'language' | 'category' | 'parameterFormat' | 'components' | 'messageSendTtlSeconds'>;
export type TemplatePatch = Partial<TemplateFields & Pick<Values, 'status' | 'providerTemplateId' | 'rejectionReason'>>;

/** Most recently updated first (ties broken by id so paging is stable). */
export async function listTemplates(db: DbOrTx, workspaceId: string): Promise<TemplateRow[]> {
  return db.select().from(templates).where(eq(templates.workspaceId, workspaceId)).orderBy(desc(templates.updatedAt), desc(templates.id));
}

export async function getTemplate(db: DbOrTx, workspaceId: string, id: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)));
  return row;
}

/** Locks the row for the rest of the transaction: submit and the status webhook serialise. */
export async function getTemplateForUpdate(db: DbOrTx, workspaceId: string, id: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
    .for('update');
  return row;
}

export async function findTemplateByKey(db: DbOrTx, workspaceId: string, name: string, language: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.name, name), eq(templates.language, language)));
  return row;
}

export async function findTemplateByProviderId(db: DbOrTx, workspaceId: string, providerTemplateId: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.providerTemplateId, providerTemplateId)));
  return row;
}

/** Inserts a draft; a (name, language) clash raises PostgreSQL 23505 for the caller to map. */
export async function insertTemplate(db: DbOrTx, workspaceId: string, fields: TemplateFields, now: Date): Promise<TemplateRow> {
  const [row] = await db
    .insert(templates)
    .values({ id: newId('template', now.getTime()), workspaceId, ...fields, status: 'draft', createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateTemplate(db: DbOrTx, workspaceId: string, id: string, patch: TemplatePatch, now: Date): Promise<TemplateRow | undefined> {
  const [row] = await db
    .update(templates)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
    .returning();
  return row;
}

/** Deletes only while the row is a draft; false when no draft row matched. */
export async function deleteDraftTemplate(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id), eq(templates.status, 'draft')))
    .returning({ id: templates.id });
  return rows.length > 0;
}

/** Upsert on (workspace, name, language): the starter pack's key. Returns the stored row. */
export async function upsertTemplateByKey(db: DbOrTx, workspaceId: string, fields: TemplateFields & TemplatePatch, now: Date): Promise<TemplateRow> {
  const { name, language, ...rest } = fields;
  const [row] = await db
    .insert(templates)
    .values({ id: newId('template', now.getTime()), workspaceId, name, language, status: 'draft', ...rest, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [templates.workspaceId, templates.name, templates.language], set: { ...rest, updatedAt: now } })
    .returning();
  return row!;
}

/** True for PostgreSQL's unique_violation, whatever driver wrapper carries it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
