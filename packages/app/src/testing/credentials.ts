import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ROLES, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, type Role } from '@mos/core';
import { sessions } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { createApiKey, revokeWorkspaceApiKey } from '../settings/api-keys';
import { removeMember } from '../members/members';
import { login } from '../auth/sessions';
import { seedOperator, type SeededOperator } from './index';

/**
 * Every kind of caller the security matrices try, for workspace A unless named otherwise.
 * `otherOwner` is the owner of workspace B; `apiKey`/`revokedApiKey` are A's keys.
 */
export const CREDENTIALS = [
  'none',
  'expiredSession',
  'idleSession',
  'revokedMember',
  'viewer',
  'developer',
  'admin',
  'owner',
  'otherOwner',
  'apiKey',
  'revokedApiKey',
] as const;
export type Credential = (typeof CREDENTIALS)[number];

export interface SeededCredentials {
  /** Workspace A's operators by role (their sessions are live). */
  a: Record<Role, SeededOperator>;
  /** Workspace B's owner. */
  b: SeededOperator;
  /** B's live API key (for /v1 isolation). */
  bApiKey: string;
  apiKey: string;
  revokedApiKey: string;
  /** The headers each credential sends: sessions as bearer tokens, keys in X-API-Key and as a bearer token. */
  headers: Record<Credential, Record<string, string>>;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const keyHeaders = (key: string) => ({ 'x-api-key': key, authorization: `Bearer ${key}` });

/**
 * Moves a member's sessions back in time in the database (no mocked clock), so that the
 * server's own session policy finds them past a timeout.
 */
async function ageSessions(deps: AppDeps, memberId: string, createdAgoMs: number, lastSeenAgoMs: number): Promise<void> {
  const now = deps.clock.now().getTime();
  await deps.db
    .update(sessions)
    .set({ createdAt: new Date(now - createdAgoMs), lastSeenAt: new Date(now - lastSeenAgoMs) })
    .where(eq(sessions.memberId, memberId));
}

/**
 * Workspaces A and B and one credential of each kind: live sessions for each role of A, one
 * past the 8-hour absolute timeout, one past the 1-hour inactivity timeout, the session of a
 * member who was then removed, B's owner, and A's API keys (one live, one revoked).
 */
export async function seedCredentials(deps: AppDeps, options: { phoneNumberIds?: [string, string] } = {}): Promise<SeededCredentials> {
  const [phoneA, phoneB] = options.phoneNumberIds ?? [randomDigits(15), randomDigits(15)];
  const owner = await seedOperator(deps, { role: 'owner', phoneNumberId: phoneA, wabaId: randomDigits(15) });
  const a = { owner } as Record<Role, SeededOperator>;
  for (const role of ROLES.filter((r) => r !== 'owner')) a[role] = await seedOperator(deps, { workspace: owner.workspaceSlug, role });
  const b = await seedOperator(deps, { role: 'owner', phoneNumberId: phoneB, wabaId: randomDigits(15) });
  const ownerScope: Scope = { workspaceId: owner.workspaceId, actorId: owner.memberId, role: 'owner' };

  // Developers would pass most role checks: a timeout or a removal is then the only reason to refuse.
  const expired = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
  await ageSessions(deps, expired.memberId, SESSION_ABSOLUTE_MS + 60_000, 60_000);
  const idle = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
  await ageSessions(deps, idle.memberId, SESSION_IDLE_MS + 120_000, SESSION_IDLE_MS + 60_000);
  const removed = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
  await removeMember(deps, ownerScope, removed.memberId);

  const apiKey = (await createApiKey(deps, ownerScope, { name: 'matrix key' })).key;
  const revoked = await createApiKey(deps, ownerScope, { name: 'revoked key' });
  await revokeWorkspaceApiKey(deps, ownerScope, revoked.id);
  const bApiKey = (await createApiKey(deps, { workspaceId: b.workspaceId, actorId: b.memberId, role: 'owner' }, { name: 'b key' })).key;

  return {
    a,
    b,
    bApiKey,
    apiKey,
    revokedApiKey: revoked.key,
    headers: {
      none: {},
      expiredSession: bearer(expired.token),
      idleSession: bearer(idle.token),
      revokedMember: bearer(removed.token),
      viewer: bearer(a.viewer.token),
      developer: bearer(a.developer.token),
      admin: bearer(a.admin.token),
      owner: bearer(a.owner.token),
      otherOwner: bearer(b.token),
      apiKey: keyHeaders(apiKey),
      revokedApiKey: keyHeaders(revoked.key),
    },
  };
}

/**
 * The same credentials with new sessions for the live operators (a sign-out test ends the
 * sessions it uses); the dead sessions and the keys stay as they are.
 */
export async function withFreshSessions(deps: AppDeps, creds: SeededCredentials): Promise<Record<Credential, Record<string, string>>> {
  const again = async (op: SeededOperator) => bearer((await login(deps, { email: op.email, password: op.password, workspace: op.workspaceSlug })).sessionToken);
  return {
    ...creds.headers,
    viewer: await again(creds.a.viewer),
    developer: await again(creds.a.developer),
    admin: await again(creds.a.admin),
    owner: await again(creds.a.owner),
    otherOwner: await again(creds.b),
  };
}

function randomDigits(n: number): string {
  return Array.from(randomBytes(n), (byte) => String(byte % 10))
    .join('')
    .replace(/^0/, '1');
}
