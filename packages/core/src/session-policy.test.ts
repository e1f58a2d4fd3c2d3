import { describe, expect, it } from 'vitest';
import { judgeSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-policy';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('judgeSession', () => {
  it('accepts a fresh session and caps expiry at the idle window', () => {
    const v = judgeSession({ createdAt: t0, lastSeenAt: t0, revokedAt: null }, at(1000));
    expect(v).toEqual({ ok: true, expiresAt: at(1000 + SESSION_IDLE_MS) });
  });
  it('rejects after an hour of inactivity', () => {
    expect(judgeSession({ createdAt: t0, lastSeenAt: t0, revokedAt: null }, at(SESSION_IDLE_MS))).toEqual({ ok: false, reason: 'idle_timeout' });
    expect(judgeSession({ createdAt: t0, lastSeenAt: t0, revokedAt: null }, at(SESSION_IDLE_MS - 1)).ok).toBe(true);
  });
  it('rejects after eight hours even when active', () => {
    const lastSeen = at(SESSION_ABSOLUTE_MS - 60_000);
    expect(judgeSession({ createdAt: t0, lastSeenAt: lastSeen, revokedAt: null }, at(SESSION_ABSOLUTE_MS))).toEqual({
      ok: false,
      reason: 'absolute_timeout',
    });
    const v = judgeSession({ createdAt: t0, lastSeenAt: lastSeen, revokedAt: null }, at(SESSION_ABSOLUTE_MS - 30_000));
    expect(v).toEqual({ ok: true, expiresAt: at(SESSION_ABSOLUTE_MS) });
  });
  it('rejects a revoked session', () => {
    expect(judgeSession({ createdAt: t0, lastSeenAt: t0, revokedAt: t0 }, at(1))).toEqual({ ok: false, reason: 'revoked' });
  });
});
