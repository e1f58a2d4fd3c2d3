import { authRouter } from './routers/auth';
import { membersRouter } from './routers/members';
import { apiKeysRouter, secretsRouter, workspaceRouter } from './routers/settings';
import { auditLogsRouter, runtimeRouter } from './routers/operations';
import { webhookEventsRouter, webhookRejectionsRouter, webhooksRouter } from './routers/webhooks';
import { templatesRouter } from './routers/templates';
import { assistantRouter, contactsRouter } from './routers/contacts';
import { accountRouter } from './routers/account';
import { createCallerFactory, router } from './trpc';

/** The control plane's whole typed surface. One line per feature router. */
export const appRouter = router({
  auth: authRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
  secrets: secretsRouter,
  workspace: workspaceRouter,
  templates: templatesRouter,
  webhooks: webhooksRouter,
  webhookEvents: webhookEventsRouter,
  webhookRejections: webhookRejectionsRouter,
  auditLogs: auditLogsRouter,
  runtime: runtimeRouter,
  contacts: contactsRouter,
  assistant: assistantRouter,
  account: accountRouter,
});

/** What frontend engineers import (through @mos/client) for end-to-end types. */
export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
