import { authRouter } from './routers/auth';
import { membersRouter } from './routers/members';
import { apiKeysRouter, secretsRouter, workspaceRouter } from './routers/settings';
import { auditLogsRouter, runtimeRouter } from './routers/operations';
import { webhookDeliveriesRouter, webhookRejectionsRouter, webhooksRouter } from './routers/webhooks';
import { syncedTemplatesRouter, templatesRouter } from './routers/templates';
import { assistantRouter, contactsRouter } from './routers/contacts';
import { accountRouter } from './routers/account';
import { broadcastsRouter, messagesRouter } from './routers/sending';
import { inboundWebhooksRouter } from './routers/inbound-webhooks';
import { campaignsRouter } from './routers/campaigns';
import { compatMappingsRouter, journeysRouter } from './routers/journeys';
import { createCallerFactory, router } from './trpc';

/**
 * The control plane's whole typed surface. One line per feature router, named after the
 * spec's resource (`webhooks` = stored webhooks, /internal/webhooks; `webhookDeliveries` =
 * /internal/webhook-events; `syncedTemplates` = /internal/templates; `templates` = the
 * library, /api/templates). Every list answers the spec's named array, the same body as its
 * REST twin: `{ templates }`, `{ members }`, `{ webhookDeliveries }`, ... (plus `nextCursor`
 * where it pages by cursor).
 */
export const appRouter = router({
  auth: authRouter,
  members: membersRouter,
  apiKeys: apiKeysRouter,
  secrets: secretsRouter,
  workspace: workspaceRouter,
  templates: templatesRouter,
  syncedTemplates: syncedTemplatesRouter,
  webhooks: webhooksRouter,
  webhookDeliveries: webhookDeliveriesRouter,
  webhookRejections: webhookRejectionsRouter,
  auditLogs: auditLogsRouter,
  runtime: runtimeRouter,
  contacts: contactsRouter,
  assistant: assistantRouter,
  account: accountRouter,
  messages: messagesRouter,
  broadcasts: broadcastsRouter,
  inboundWebhooks: inboundWebhooksRouter,
  campaigns: campaignsRouter,
  journeys: journeysRouter,
  compatMappings: compatMappingsRouter,
});

/** What frontend engineers import (through @mos/client) for end-to-end types. */
export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
