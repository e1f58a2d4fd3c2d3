import { Router } from 'express';
import { z } from 'zod';
import { AppError, safeString } from '@mos/core';
import { login, logout, SESSION_COOKIE, type AppDeps } from '@mos/app';
import { jsonBody } from './body';
import { createLoginThrottle } from './login-throttle';
import { actorOf, requireSession } from './session';

const loginBody = z.object({
  email: safeString().trim().email().max(320),
  password: safeString().min(1).max(1024),
  workspace: safeString().trim().min(1).max(64).optional(),
});

/**
 * POST /login and /logout, mounted at /api/auth by both apps. The session token comes back
 * in the body (for bearer use) and as an httpOnly cookie (for browsers). Failed sign-ins are
 * throttled per account and per client address (429 rate_limited with Retry-After).
 */
export function authRoutes(deps: AppDeps): Router {
  const r = Router();
  r.use(jsonBody('16kb'));
  const throttle = createLoginThrottle(deps.env);
  const secure = deps.env.MOS_ENV === 'production' || deps.env.MOS_COOKIE_SECURE;

  r.post('/login', async (req, res) => {
    const parsed = loginBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw new AppError('invalid_request', { message: 'email and password are required', issues: parsed.error.issues });
    }
    // trust proxy is off: the socket's peer is the client as far as this process can tell.
    const address = req.socket.remoteAddress ?? 'unknown';
    const retryAfter = await throttle.attempt(parsed.data.email, address);
    if (retryAfter !== null) {
      res.setHeader('Retry-After', String(retryAfter));
      throw new AppError('rate_limited', { message: 'Too many sign-in attempts; try again later' });
    }
    const result = await login(deps, parsed.data);
    await throttle.succeeded(parsed.data.email, address);
    res.cookie(SESSION_COOKIE, result.sessionToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      expires: new Date(result.expiresAt),
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(result);
  });

  r.post('/logout', requireSession(deps), async (req, res) => {
    await logout(deps, actorOf(req));
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({ ok: true });
  });

  return r;
}
