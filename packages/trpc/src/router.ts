import { authRouter } from './routers/auth';
import { membersRouter } from './routers/members';
import { apiKeysRouter, secretsRouter, workspaceRouter } from './routers/settings';
import { createCallerFactory, router } from './trpc';

/** The control plane's whole typed surface. One line per feature router. */
export const appRouter = router({
  auth: authRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
  secrets: secretsRouter,
  workspace: workspaceRouter,
});

/** What frontend engineers import (through @mos/client) for end-to-end types. */
export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
