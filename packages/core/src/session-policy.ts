/** Operator session policy from the spec: 8-hour absolute, 1-hour inactivity. */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 60 * 60 * 1000;

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
}

export type SessionVerdict = { ok: true; expiresAt: Date } | { ok: false; reason: 'revoked' | 'absolute_timeout' | 'idle_timeout' };

/** Pure: whether a session is usable at `now`, and when it would expire if used now. */
export function judgeSession(s: SessionTimes, now: Date): SessionVerdict {
  if (s.revokedAt) return { ok: false, reason: 'revoked' };
  const absoluteEnd = s.createdAt.getTime() + SESSION_ABSOLUTE_MS;
  if (now.getTime() >= absoluteEnd) return { ok: false, reason: 'absolute_timeout' };
  if (now.getTime() - s.lastSeenAt.getTime() >= SESSION_IDLE_MS) return { ok: false, reason: 'idle_timeout' };
  return { ok: true, expiresAt: new Date(Math.min(absoluteEnd, now.getTime() + SESSION_IDLE_MS)) };
}
