import { z } from 'zod';
import { AppError, ROLES, type Role } from '@mos/core';
import { deleteMember, findMemberByEmail, getMember, listMembers, updateMemberRole, upsertMember, writeAuditLog, type MemberRow } from '@mos/db';
import type { AppDeps } from '../deps';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords';
import type { Scope } from './scope';

export const memberView = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

export const toMemberView = (m: MemberRow): MemberView => ({ id: m.id, email: m.email, role: m.role, createdAt: m.createdAt.toISOString() });

export const addMemberInput = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
  role: z.enum(ROLES),
});

export async function listWorkspaceMembers(deps: AppDeps, scope: Scope): Promise<MemberView[]> {
  return (await listMembers(deps.db, scope.workspaceId)).map(toMemberView);
}

export async function addMember(deps: AppDeps, scope: Scope, input: z.infer<typeof addMemberInput>): Promise<MemberView> {
  if (await findMemberByEmail(deps.db, scope.workspaceId, input.email)) {
    throw new AppError('conflict', { message: `${input.email} is already a member of this workspace` });
  }
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const { member } = await upsertMember(tx, scope.workspaceId, { email: input.email, passwordHash, role: input.role });
    await writeAuditLog(tx, scope.workspaceId, { action: 'member.add', actorId: scope.actorId, targetId: member.id, details: { role: input.role } });
    return toMemberView(member);
  });
}

async function assertNotLastOwner(deps: AppDeps, scope: Scope, memberId: string, nextRole?: Role): Promise<void> {
  const all = await listMembers(deps.db, scope.workspaceId);
  const target = all.find((m) => m.id === memberId);
  if (target?.role !== 'owner' || nextRole === 'owner') return;
  if (all.filter((m) => m.role === 'owner').length <= 1) {
    throw new AppError('conflict', { message: 'A workspace must keep at least one owner' });
  }
}

/** Removing a member deletes the membership; its sessions go with it (revoked at once). */
export async function removeMember(deps: AppDeps, scope: Scope, memberId: string): Promise<{ ok: true }> {
  if (!(await getMember(deps.db, scope.workspaceId, memberId))) throw new AppError('not_found', { message: 'member not found' });
  await assertNotLastOwner(deps, scope, memberId);
  await deps.db.transaction(async (tx) => {
    await deleteMember(tx, scope.workspaceId, memberId);
    await writeAuditLog(tx, scope.workspaceId, { action: 'member.remove', actorId: scope.actorId, targetId: memberId });
  });
  return { ok: true };
}

export async function changeMemberRole(deps: AppDeps, scope: Scope, memberId: string, role: Role): Promise<MemberView> {
  if (!(await getMember(deps.db, scope.workspaceId, memberId))) throw new AppError('not_found', { message: 'member not found' });
  await assertNotLastOwner(deps, scope, memberId, role);
  return deps.db.transaction(async (tx) => {
    const row = await updateMemberRole(tx, scope.workspaceId, memberId, role);
    await writeAuditLog(tx, scope.workspaceId, { action: 'member.role', actorId: scope.actorId, targetId: memberId, details: { role } });
    return toMemberView(row!);
  });
}
