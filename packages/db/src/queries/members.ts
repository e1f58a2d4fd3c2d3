import { and, asc, eq } from 'drizzle-orm';
import { newId, type Role } from '@mos/core';
import type { DbOrTx } from '../client';
import { members, workspaces } from '../schema/index';

export type MemberRow = typeof members.$inferSelect;

export async function listMembers(db: DbOrTx, workspaceId: string): Promise<MemberRow[]> {
  return db.select().from(members).where(eq(members.workspaceId, workspaceId)).orderBy(asc(members.createdAt), asc(members.id));
}

/**
 * Every member of the workspace, row-locked until the transaction ends: role changes and
 * removals check "at least one owner stays" against this, so two concurrent demotions
 * serialise instead of both seeing the other owner.
 */
export async function lockMembers(tx: DbOrTx, workspaceId: string): Promise<MemberRow[]> {
  return tx.select().from(members).where(eq(members.workspaceId, workspaceId)).orderBy(asc(members.id)).for('update');
}

/** A new membership; a concurrent insert of the same email fails with a unique violation (23505). */
export async function insertMember(db: DbOrTx, workspaceId: string, input: { email: string; passwordHash: string; role: Role }): Promise<MemberRow> {
  const [row] = await db
    .insert(members)
    .values({ id: newId('member'), workspaceId, email: input.email.toLowerCase(), passwordHash: input.passwordHash, role: input.role })
    .returning();
  return row!;
}

export async function getMember(db: DbOrTx, workspaceId: string, memberId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.id, memberId)));
  return row;
}

export async function findMemberByEmail(db: DbOrTx, workspaceId: string, email: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.email, email.toLowerCase())));
  return row;
}

/**
 * Login candidates: memberships with this email, optionally narrowed to one workspace slug.
 * Login is the one place identity is looked up before a workspace is known.
 */
export async function findLoginCandidates(db: DbOrTx, email: string, workspaceSlug?: string) {
  const rows = await db
    .select({ member: members, workspace: { id: workspaces.id, slug: workspaces.slug } })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .where(workspaceSlug ? and(eq(members.email, email.toLowerCase()), eq(workspaces.slug, workspaceSlug)) : eq(members.email, email.toLowerCase()))
    .orderBy(asc(members.createdAt));
  return rows;
}

export async function upsertMember(
  db: DbOrTx,
  workspaceId: string,
  input: { email: string; passwordHash: string; role: Role },
): Promise<{ member: MemberRow; created: boolean }> {
  const email = input.email.toLowerCase();
  const existing = await findMemberByEmail(db, workspaceId, email);
  if (existing) {
    const [row] = await db
      .update(members)
      .set({ passwordHash: input.passwordHash, role: input.role, updatedAt: new Date() })
      .where(and(eq(members.workspaceId, workspaceId), eq(members.id, existing.id)))
      .returning();
    return { member: row!, created: false };
  }
  const [row] = await db
    .insert(members)
    .values({ id: newId('member'), workspaceId, email, passwordHash: input.passwordHash, role: input.role })
    .returning();
  return { member: row!, created: true };
}

export async function updateMemberRole(db: DbOrTx, workspaceId: string, memberId: string, role: Role): Promise<MemberRow | undefined> {
  const [row] = await db
    .update(members)
    .set({ role, updatedAt: new Date() })
    .where(and(eq(members.workspaceId, workspaceId), eq(members.id, memberId)))
    .returning();
  return row;
}

/** Deleting the membership cascades to its sessions: revocation is immediate. */
export async function deleteMember(db: DbOrTx, workspaceId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .delete(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.id, memberId)))
    .returning({ id: members.id });
  return rows.length > 0;
}
