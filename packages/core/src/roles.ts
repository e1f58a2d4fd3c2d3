export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** Who asks: an operator's role, or the platform admin (the `mos` CLI). */
export type ActorRole = Role | 'platform';

/** Roles allowed into settings routes (templates, members, keys, secrets). */
export const SETTINGS_ROLES: readonly Role[] = ['owner', 'admin', 'developer'];
/** Roles allowed to manage people and seed shared content. */
export const ADMIN_ROLES: readonly Role[] = ['owner', 'admin'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleAllowed(role: Role, allowed: readonly Role[]): boolean {
  return allowed.includes(role);
}

/**
 * Who sees personal data unredacted (raw webhook bodies, phone numbers, message text): the
 * roles that configure the workspace. Viewers get redacted copies (docs/security.md); the
 * platform admin (CLI) sees everything.
 */
export function seesPersonalData(role: ActorRole): boolean {
  return role !== 'viewer';
}
