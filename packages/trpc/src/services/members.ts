import { z } from 'zod';
import { AppError, judgeMemberChange, ROLES, type MemberChange, type Role, safeString } from '@mos/core';
import {
  deleteMember, findMemberByEmail, insertMember, isUniqueViolation, listMembers, lockMembers, updateMemberRole, writeAuditLog, type DbOrTx, type MemberRow,
} from '@mos/db';
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
  email: safeString().trim().toLowerCase().email().max(320),
  password: safeString().min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
  role: z.enum(ROLES),
});

export async function listWorkspaceMembers(deps: AppDeps, scope: Scope): Promise<MemberView[]> {
  return (await listMembers(deps.db, scope.workspaceId)).map(toMemberView);
}

/** 403 unless the role ladder (core judgeMemberChange) allows this change. */
function assertAllowed(scope: Scope, change: MemberChange): void {
  const verdict = judgeMemberChange(scope.role, change);
  if (!verdict.ok) throw new AppError('forbidden', { message: verdict.reason });
}

export async function addMember(deps: AppDeps, scope: Scope, input: z.infer<typeof addMemberInput>): Promise<MemberView> {
  assertAllowed(scope, { kind: 'add', newRole: input.role });
  if (await findMemberByEmail(deps.db, scope.workspaceId, input.email)) {
    throw new AppError('conflict', { message: `${input.email} is already a member of this workspace` });
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      // Insert, never upsert: a concurrent add of the same email must not overwrite a password.
      const member = await insertMember(tx, scope.workspaceId, { email: input.email, passwordHash, role: input.role });
      await writeAuditLog(tx, scope.workspaceId, { action: 'member.add', actorId: scope.actorId, targetId: member.id, details: { role: input.role } });
      return toMemberView(member);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', { message: `${input.email} is already a member of this workspace` });
    throw err;
  }
}

/**
 * Loads the workspace's members row-locked (so concurrent changes serialise), finds the
 * target, applies the role ladder and the "at least one owner stays" rule.
 */
async function lockTarget(tx: DbOrTx, scope: Scope, memberId: string, change: (target: MemberRow) => MemberChange, nextRole?: Role): Promise<MemberRow> {
  const all = await lockMembers(tx, scope.workspaceId);
  const target = all.find((m) => m.id === memberId);
  if (!target) throw new AppError('not_found', { message: 'member not found' });
  // Judge by the actor's role as it is now, under the lock, not as the session saw it: a
  // request racing its actor's own demotion must not act with the old role.
  const actorRole = scope.role === 'platform' ? 'platform' : all.find((m) => m.id === scope.actorId)?.role;
  if (!actorRole) throw new AppError('forbidden', { message: 'You are no longer a member of this workspace' });
  assertAllowed({ ...scope, role: actorRole }, change(target));
  if (target.role === 'owner' && nextRole !== 'owner' && all.filter((m) => m.role === 'owner').length <= 1) {
    throw new AppError('conflict', { message: 'A workspace must keep at least one owner' });
  }
  return target;
}

/** Removing a member deletes the membership; its sessions go with it (revoked at once). */
export async function removeMember(deps: AppDeps, scope: Scope, memberId: string): Promise<{ ok: true }> {
  await deps.db.transaction(async (tx) => {
    await lockTarget(tx, scope, memberId, (t) => ({ kind: 'remove', targetRole: t.role, self: t.id === scope.actorId }));
    await deleteMember(tx, scope.workspaceId, memberId);
    await writeAuditLog(tx, scope.workspaceId, { action: 'member.remove', actorId: scope.actorId, targetId: memberId });
  });
  return { ok: true };
}

export async function changeMemberRole(deps: AppDeps, scope: Scope, memberId: string, role: Role): Promise<MemberView> {
  return deps.db.transaction(async (tx) => {
    const target = await lockTarget(tx, scope, memberId, (t) => ({ kind: 'setRole', targetRole: t.role, newRole: role, self: t.id === scope.actorId }), role);
    const row = await updateMemberRole(tx, scope.workspaceId, memberId, role);
    await writeAuditLog(tx, scope.workspaceId, { action: 'member.role', actorId: scope.actorId, targetId: memberId, details: { role, previousRole: target.role } });
    return toMemberView(row!);
  });
}
