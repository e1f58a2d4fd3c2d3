import { z } from 'zod';
import { ROLES } from '@mos/core';
import { operatorProcedure, router } from '../trpc';

export const authRouter = router({
  /** Who am I: the session's operator, role and workspace. */
  me: operatorProcedure
    .output(
      z.object({
        memberId: z.string(),
        email: z.string(),
        role: z.enum(ROLES),
        workspace: z.object({ id: z.string(), slug: z.string() }),
        expiresAt: z.string(),
      }),
    )
    .query(({ ctx }) => ({
      memberId: ctx.actor.memberId,
      email: ctx.actor.email,
      role: ctx.actor.role,
      workspace: { id: ctx.actor.workspaceId, slug: ctx.actor.workspaceSlug },
      expiresAt: ctx.actor.expiresAt.toISOString(),
    })),
});
