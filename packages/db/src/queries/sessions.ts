import { and, eq, isNull } from 'drizzle-orm';
import { newId } from '@mos/core';
import type { DbOrTx } from '../client';
import { members, sessions, workspaces } from '../schema/index';

export type SessionRow = typeof sessions.$inferSelect;

export async function createSession(db: DbOrTx, workspaceId: string, input: { memberId: string; tokenHash: string; now: Date }): Promise<SessionRow> {
  const [row] = await db
    .insert(sessions)
    .values({ id: newId('session'), workspaceId, memberId: input.memberId, tokenHash: input.tokenHash, createdAt: input.now, lastSeenAt: input.now })
    .returning();
  return row!;
}

/**
 * Token lookup happens before the workspace is known (the token is the credential), so it
 * is keyed by the token hash and returns the session's own workspace and member.
 */
export async function findSessionByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ session: sessions, member: members, workspace: { id: workspaces.id, slug: workspaces.slug } })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .where(eq(sessions.tokenHash, tokenHash));
  return row;
}

export async function touchSession(db: DbOrTx, workspaceId: string, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.id, sessionId)));
}

export async function revokeSession(db: DbOrTx, workspaceId: string, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeMemberSessions(db: DbOrTx, workspaceId: string, memberId: string, now: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.memberId, memberId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}
