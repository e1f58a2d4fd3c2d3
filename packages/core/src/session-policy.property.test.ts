import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-policy';

/**
 * The session rule, as laws over any times: usable exactly while under 8 h since creation and
 * under 1 h since last use and not revoked, and the expiry it reports is never later than
 * either bound.
 */

const T0 = Date.UTC(2025, 0, 1);
const offset = fc.integer({ min: -SESSION_ABSOLUTE_MS, max: 3 * SESSION_ABSOLUTE_MS });

describe('judgeSession', () => {
  it('ok exactly within both bounds and unrevoked; the expiry is the earlier bound', () => {
    fc.assert(
      fc.property(offset, offset, offset, fc.boolean(), (seen, now, revokedAt, revoked) => {
        const s = { createdAt: new Date(T0), lastSeenAt: new Date(T0 + seen), revokedAt: revoked ? new Date(T0 + revokedAt) : null };
        const v = judgeSession(s, new Date(T0 + now));
        const withinAbsolute = now < SESSION_ABSOLUTE_MS;
        const withinIdle = now - seen < SESSION_IDLE_MS;
        if (revoked) expect(v).toEqual({ ok: false, reason: 'revoked' });
        else if (!withinAbsolute) expect(v).toEqual({ ok: false, reason: 'absolute_timeout' });
        else if (!withinIdle) expect(v).toEqual({ ok: false, reason: 'idle_timeout' });
        else {
          expect(v).toEqual({ ok: true, expiresAt: new Date(T0 + Math.min(SESSION_ABSOLUTE_MS, now + SESSION_IDLE_MS)) });
        }
      }),
      { numRuns: 300 },
    );
  });
});
