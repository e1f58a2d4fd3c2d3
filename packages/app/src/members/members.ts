import { z } from 'zod';
import { AppError, judgeMemberChange, ROLES, type MemberChange, type Role, safeString } from '@mos/core';
import { deleteMember, insertMember, isUniqueViolation, listMembers, lockMembers, updateMemberRole, writeAuditLog, type DbOrTx, type MemberRow } from '@mos/db';
import type { AppDeps } from '../deps';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/passwords';
import type { Scope } from '../scope';

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

export async function listWorkspaceMembers(deps: AppDeps, scope: Scope): Promise<{ members: MemberView[] }> {
  return { members: (await listMembers(deps.db, scope.workspaceId)).map(toMemberView) };
}

/**
 * Locks the workspace's members (so concurrent changes serialise) and applies the role
 * ladder (core judgeMemberChange) to `change`, judging the actor by its role as it is now,
 * under the lock, not as the session saw it: a request racing its actor's own demotion must
 * not act with the old role. Returns the locked members.
 */
async function judgeUnderLock(tx: DbOrTx, scope: Scope, change: (all: MemberRow[]) => MemberChange): Promise<MemberRow[]> {
  const all = await lockMembers(tx, scope.workspaceId);
  const actorRole = scope.role === 'platform' ? 'platform' : all.find((m) => m.id === scope.actorId)?.role;
  if (!actorRole) throw new AppError('forbidden', { message: 'You are no longer a member of this workspace' });
  const verdict = judgeMemberChange(actorRole, change(all));
  if (!verdict.ok) throw new AppError('forbidden', { message: verdict.reason });
  return all;
}

const alreadyMember = (email: string) => new AppError('conflict', { message: `${email} is already a member of this workspace` });

export async function addMember(deps: AppDeps, scope: Scope, input: z.infer<typeof addMemberInput>): Promise<MemberView> {
  // Hashed before the transaction: argon2 is slow and must not run while the members are locked.
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const all = await judgeUnderLock(tx, scope, () => ({ kind: 'add', newRole: input.role }));
      if (all.some((m) => m.email === input.email)) throw alreadyMember(input.email);
      // Insert, never upsert: a concurrent add of the same email fails (23505), never overwrites a password.
      const member = await insertMember(tx, scope.workspaceId, { email: input.email, passwordHash, role: input.role });
      await writeAuditLog(tx, scope.workspaceId, { action: 'member.add', actorId: scope.actorId, targetId: member.id, details: { role: input.role } });
      return toMemberView(member);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyMember(input.email);
    throw err;
  }
}

function memberIn(all: MemberRow[], memberId: string): MemberRow {
  const m = all.find((x) => x.id === memberId);
  if (!m) throw new AppError('not_found', { message: 'member not found' });
  return m;
}

/** The target under the lock, once the role ladder allows the change and at least one owner stays. */
async function lockTarget(tx: DbOrTx, scope: Scope, memberId: string, changeFor: (target: MemberRow) => MemberChange): Promise<MemberRow> {
  const all = await judgeUnderLock(tx, scope, (members) => changeFor(memberIn(members, memberId)));
  const target = memberIn(all, memberId);
  const change = changeFor(target);
  const staysOwner = change.kind === 'setRole' && change.newRole === 'owner';
  if (target.role === 'owner' && !staysOwner && all.filter((m) => m.role === 'owner').length <= 1) {
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
    const target = await lockTarget(tx, scope, memberId, (t) => ({ kind: 'setRole', targetRole: t.role, newRole: role, self: t.id === scope.actorId }));
    const row = await updateMemberRole(tx, scope.workspaceId, memberId, role);
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'member.role',
      actorId: scope.actorId,
      targetId: memberId,
      details: { role, previousRole: target.role },
    });
    return toMemberView(row!);
  });
}
