import { AppError, judgeSession, newToken, sha256Hex, type Role } from '@mos/core';
import { createSession, findLoginCandidates, findSessionByTokenHash, revokeSession, touchSession } from '@mos/db';
import type { Actor, AppDeps } from '../deps';
import { dummyPasswordHash, verifyPassword } from './passwords';

export const SESSION_COOKIE = 'mos_session';

export interface LoginResult {
  sessionToken: string;
  expiresAt: string;
  role: Role;
  workspace: { id: string; slug: string };
}

/**
 * Checks the password against every membership with this email (optionally one workspace),
 * always doing at least one argon2 verification so unknown emails and wrong passwords take
 * the same time and answer the same 401.
 */
export async function login(deps: AppDeps, input: { email: string; password: string; workspace?: string }): Promise<LoginResult> {
  const candidates = await findLoginCandidates(deps.db, input.email.trim(), input.workspace);
  const matches: typeof candidates = [];
  if (candidates.length === 0) {
    await verifyPassword(await dummyPasswordHash(), input.password);
  }
  for (const c of candidates) {
    if (await verifyPassword(c.member.passwordHash, input.password)) matches.push(c);
  }
  if (matches.length === 0) throw new AppError('unauthenticated', { message: 'Invalid email or password' });
  if (matches.length > 1) {
    throw new AppError('workspace_required', { message: 'This account belongs to several workspaces: pass workspace (its slug)' });
  }
  const { member, workspace } = matches[0]!;
  const now = deps.clock.now();
  const sessionToken = newToken('mos_sess');
  await createSession(deps.db, workspace.id, { memberId: member.id, tokenHash: sha256Hex(sessionToken), now });
  const verdict = judgeSession({ createdAt: now, lastSeenAt: now, revokedAt: null }, now);
  if (!verdict.ok) throw new AppError('internal_error');
  deps.log.info({ memberId: member.id, workspaceId: workspace.id }, 'operator signed in');
  return { sessionToken, expiresAt: verdict.expiresAt.toISOString(), role: member.role, workspace };
}

/**
 * Resolves a bearer token to an Actor, enforcing the absolute and inactivity timeouts on
 * the server, and slides the inactivity window forward.
 */
export async function authenticate(deps: AppDeps, token: string | undefined): Promise<Actor | null> {
  if (!token) return null;
  const row = await findSessionByTokenHash(deps.db, sha256Hex(token));
  if (!row) return null;
  const now = deps.clock.now();
  const verdict = judgeSession(row.session, now);
  if (!verdict.ok) return null;
  // Writing last_seen on every request would serialise hot operators on one row; a
  // minute's granularity is plenty against a one-hour window.
  if (now.getTime() - row.session.lastSeenAt.getTime() > 60_000) {
    await touchSession(deps.db, row.workspace.id, row.session.id, now);
  }
  return {
    sessionId: row.session.id,
    memberId: row.member.id,
    email: row.member.email,
    role: row.member.role,
    workspaceId: row.workspace.id,
    workspaceSlug: row.workspace.slug,
    expiresAt: verdict.expiresAt,
  };
}

export async function logout(deps: AppDeps, actor: Actor): Promise<void> {
  await revokeSession(deps.db, actor.workspaceId, actor.sessionId, deps.clock.now());
}

/** Reads `Authorization: Bearer` first, then the session cookie; a cookie that cannot be decoded is a 400. */
export function tokenFromHeaders(headers: { authorization?: string; cookie?: string }): string | undefined {
  const auth = headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || undefined;
  const cookie = headers.cookie;
  if (!cookie) return undefined;
  for (const part of cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(v.join('=')) || undefined;
    } catch {
      throw new AppError('invalid_request', { message: 'Malformed session cookie' });
    }
  }
  return undefined;
}
