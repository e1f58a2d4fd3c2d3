import type { ActorRole, Role } from './roles';

export type MemberChange =
  { kind: 'add'; newRole: Role } | { kind: 'setRole'; targetRole: Role; newRole: Role; self: boolean } | { kind: 'remove'; targetRole: Role; self: boolean };

export type MemberChangeVerdict = { ok: true } | { ok: false; reason: string };

/** The roles an admin manages; everything above them is the owners' business. */
const ADMIN_MANAGED: readonly Role[] = ['developer', 'viewer'];

/**
 * The role ladder as a pure rule (docs/security.md): only owners grant or take away the
 * owner (and admin) role, an admin manages developers and viewers only, and nobody changes
 * their own role, so no one can climb the ladder alone. Leaving (removing oneself) is
 * allowed; the last-owner rule is checked separately, against the stored members.
 */
export function judgeMemberChange(actor: ActorRole, change: MemberChange): MemberChangeVerdict {
  if (change.kind === 'setRole' && change.self) return { ok: false, reason: 'Nobody can change their own role' };
  if (actor === 'platform' || actor === 'owner') return { ok: true };
  if (actor !== 'admin') return { ok: false, reason: 'Only owners and admins manage members' };
  if (change.kind === 'remove' && change.self) return { ok: true };
  const touched = change.kind === 'add' ? [change.newRole] : change.kind === 'setRole' ? [change.targetRole, change.newRole] : [change.targetRole];
  if (touched.every((r) => ADMIN_MANAGED.includes(r))) return { ok: true };
  return { ok: false, reason: 'Admins manage developers and viewers only; owners manage owners and admins' };
}
