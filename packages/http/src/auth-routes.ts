import express, { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@mos/core';
import { login, logout, SESSION_COOKIE, type AppDeps } from '@mos/trpc';
import { actorOf, requireSession } from './session';

const loginBody = z.object({
  email: z.string().trim().email().max(320),
  password: z.string().min(1).max(1024),
  workspace: z.string().trim().min(1).max(64).optional(),
});

/**
 * POST /login and /logout, mounted at /api/auth by both apps. The session token comes back
 * in the body (for bearer use) and as an httpOnly cookie (for browsers).
 */
export function authRoutes(deps: AppDeps): Router {
  const r = Router();
  r.use(express.json({ limit: '16kb' }));
  const secure = deps.env.MOS_ENV === 'production' || deps.env.MOS_COOKIE_SECURE;

  r.post('/login', async (req, res) => {
    const parsed = loginBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw new AppError('invalid_request', { message: 'email and password are required', issues: parsed.error.issues });
    }
    const result = await login(deps, parsed.data);
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
