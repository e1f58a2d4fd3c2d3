import { ADMIN_ROLES, ROLES, SETTINGS_ROLES, type Role } from '@mos/core';
import type { EntityKind } from '@mos/app/testing';

/**
 * Who may call each tRPC procedure, declared here because roleProcedure's check is a closure
 * (not introspectable). docs/security.md and the spec are the source: reads for any operator,
 * configuration for the settings roles, people, secrets, promotion, GDPR and the starter pack
 * for owner/admin. The security matrix fails while a procedure is missing here.
 */
export type Policy = 'operator' | 'settings' | 'admin';

export const POLICY_ROLES: Record<Policy, readonly Role[]> = { operator: ROLES, settings: SETTINGS_ROLES, admin: ADMIN_ROLES };

const procedures = (router: string, policy: Policy, names: string[]) => Object.fromEntries(names.map((n) => [`${router}.${n}`, policy]));

export const PROCEDURE_POLICY: Record<string, Policy> = {
  ...procedures('auth', 'operator', ['me']),
  ...procedures('members', 'operator', ['list']),
  ...procedures('members', 'admin', ['add', 'remove', 'setRole']),
  ...procedures('apiKeys', 'settings', ['list', 'create', 'revoke']),
  ...procedures('secrets', 'admin', ['list', 'set', 'remove']),
  ...procedures('workspace', 'settings', ['get']),
  ...procedures('workspace', 'admin', ['update']),
  ...procedures('templates', 'settings', ['list', 'get', 'create', 'update', 'delete', 'submit', 'revise', 'validate']),
  ...procedures('templates', 'admin', ['seedStarterPack']),
  ...procedures('syncedTemplates', 'operator', ['list']),
  ...procedures('webhooks', 'operator', ['list', 'get']),
  ...procedures('webhooks', 'settings', ['replay']),
  ...procedures('webhookDeliveries', 'operator', ['list']),
  ...procedures('webhookDeliveries', 'settings', ['replay']),
  ...procedures('webhookRejections', 'operator', ['list', 'get']),
  ...procedures('auditLogs', 'operator', ['list']),
  ...procedures('runtime', 'operator', ['snapshot']),
  ...procedures('contacts', 'operator', ['list', 'get']),
  ...procedures('contacts', 'settings', ['update']),
  ...procedures('contacts', 'admin', ['gdprExport', 'gdprErase']),
  // It quotes customers' messages: not for viewers (docs/security.md).
  ...procedures('assistant', 'settings', ['ask']),
  ...procedures('account', 'operator', ['events', 'limits']),
  ...procedures('messages', 'operator', ['list', 'get']),
  ...procedures('broadcasts', 'operator', ['list', 'get']),
  ...procedures('broadcasts', 'settings', ['pause', 'resume', 'cancel']),
  ...procedures('inboundWebhooks', 'settings', ['list', 'get', 'create', 'update', 'rotateSecret', 'disable', 'dryRun', 'delete', 'preview', 'runs', 'run']),
  ...procedures('inboundWebhooks', 'admin', ['promote']),
  ...procedures('campaigns', 'operator', ['list', 'get']),
  ...procedures('campaigns', 'settings', ['create', 'update', 'activate', 'pause', 'resume', 'cancel', 'archive']),
  ...procedures('journeys', 'operator', ['list', 'get', 'runs']),
  ...procedures('journeys', 'settings', ['create', 'update', 'activate', 'pause', 'archive']),
  ...procedures('compatMappings', 'operator', ['list', 'get']),
  ...procedures('compatMappings', 'settings', ['create', 'delete']),
};

/**
 * The control plane's REST routes: each is a thin adapter over one procedure (via-procedure.ts),
 * so its policy is that procedure's; the rest are sign-in (public), sign-out (any live session)
 * and the platform's metrics (MOS_METRICS_TOKEN when one is set, never an operator's credential).
 */
export type RestTarget = { procedure: string } | { public: true } | { session: true } | { metricsToken: true };

export const REST_ROUTES: Record<string, RestTarget> = {
  'get /health': { public: true },
  'get /metrics': { metricsToken: true },
  'post /api/auth/login': { public: true },
  'post /api/auth/logout': { session: true },
  'get /api/me': { procedure: 'auth.me' },
  'get /api/members': { procedure: 'members.list' },
  'post /api/members': { procedure: 'members.add' },
  'patch /api/members/:id': { procedure: 'members.setRole' },
  'delete /api/members/:id': { procedure: 'members.remove' },
  'get /api/api-keys': { procedure: 'apiKeys.list' },
  'post /api/api-keys': { procedure: 'apiKeys.create' },
  'delete /api/api-keys/:id': { procedure: 'apiKeys.revoke' },
  'get /api/secrets': { procedure: 'secrets.list' },
  'put /api/secrets/:name': { procedure: 'secrets.set' },
  'delete /api/secrets/:name': { procedure: 'secrets.remove' },
  'get /api/workspace': { procedure: 'workspace.get' },
  'patch /api/workspace': { procedure: 'workspace.update' },
  'get /api/templates': { procedure: 'templates.list' },
  'post /api/templates': { procedure: 'templates.create' },
  'post /api/templates/seed-starter-pack': { procedure: 'templates.seedStarterPack' },
  'post /api/templates/validate': { procedure: 'templates.validate' },
  'get /api/templates/:id': { procedure: 'templates.get' },
  'put /api/templates/:id': { procedure: 'templates.update' },
  'delete /api/templates/:id': { procedure: 'templates.delete' },
  'post /api/templates/:id/submit': { procedure: 'templates.submit' },
  'post /api/templates/:id/revise': { procedure: 'templates.revise' },
  'get /api/contacts/:id/gdpr': { procedure: 'contacts.gdprExport' },
  'delete /api/contacts/:id/gdpr': { procedure: 'contacts.gdprErase' },
  'post /api/ai-assistant': { procedure: 'assistant.ask' },
  'get /api/inbound-webhooks': { procedure: 'inboundWebhooks.list' },
  'post /api/inbound-webhooks': { procedure: 'inboundWebhooks.create' },
  'post /api/inbound-webhooks/preview': { procedure: 'inboundWebhooks.preview' },
  'get /api/inbound-webhooks/runs/:runId': { procedure: 'inboundWebhooks.run' },
  'get /api/inbound-webhooks/:id': { procedure: 'inboundWebhooks.get' },
  'patch /api/inbound-webhooks/:id': { procedure: 'inboundWebhooks.update' },
  'delete /api/inbound-webhooks/:id': { procedure: 'inboundWebhooks.delete' },
  'post /api/inbound-webhooks/:id/rotate-secret': { procedure: 'inboundWebhooks.rotateSecret' },
  'post /api/inbound-webhooks/:id/disable': { procedure: 'inboundWebhooks.disable' },
  'post /api/inbound-webhooks/:id/dry-run': { procedure: 'inboundWebhooks.dryRun' },
  'post /api/inbound-webhooks/:id/preview': { procedure: 'inboundWebhooks.preview' },
  'get /api/inbound-webhooks/:id/runs': { procedure: 'inboundWebhooks.runs' },
};

/**
 * What each id-like input field of a procedure names (fields called `id` or ending in `Id`),
 * so the isolation suite can hand it another workspace's record. A procedure whose input gains
 * such a field fails that suite until it is listed here.
 */
export const ID_FIELDS: Record<string, EntityKind> = {
  'members.remove.id': 'member',
  'members.setRole.id': 'member',
  'apiKeys.revoke.id': 'apiKey',
  'templates.get.id': 'template',
  'templates.update.id': 'template',
  'templates.delete.id': 'template',
  'templates.submit.id': 'template',
  'templates.revise.id': 'template',
  'webhooks.get.id': 'webhookEvent',
  'webhooks.replay.id': 'webhookEvent',
  'webhookDeliveries.replay.id': 'webhookDelivery',
  'webhookRejections.get.id': 'webhookRejection',
  'contacts.get.id': 'contact',
  'contacts.update.id': 'contact',
  'contacts.gdprExport.id': 'contact',
  'contacts.gdprErase.id': 'contact',
  'messages.list.broadcastId': 'broadcast',
  'messages.list.contactId': 'contact',
  'messages.get.id': 'message',
  'broadcasts.get.id': 'broadcast',
  'broadcasts.pause.id': 'broadcast',
  'broadcasts.resume.id': 'broadcast',
  'broadcasts.cancel.id': 'broadcast',
  'inboundWebhooks.get.id': 'inboundWebhook',
  'inboundWebhooks.update.id': 'inboundWebhook',
  'inboundWebhooks.rotateSecret.id': 'inboundWebhook',
  'inboundWebhooks.disable.id': 'inboundWebhook',
  'inboundWebhooks.dryRun.id': 'inboundWebhook',
  'inboundWebhooks.promote.id': 'inboundWebhook',
  'inboundWebhooks.delete.id': 'inboundWebhook',
  'inboundWebhooks.preview.id': 'inboundWebhook',
  'inboundWebhooks.runs.id': 'inboundWebhook',
  'inboundWebhooks.run.runId': 'inboundRun',
  'campaigns.get.id': 'campaign',
  'campaigns.update.id': 'campaign',
  'campaigns.activate.id': 'campaign',
  'campaigns.pause.id': 'campaign',
  'campaigns.resume.id': 'campaign',
  'campaigns.cancel.id': 'campaign',
  'campaigns.archive.id': 'campaign',
  'journeys.get.id': 'journey',
  'journeys.update.id': 'journey',
  'journeys.activate.id': 'journey',
  'journeys.pause.id': 'journey',
  'journeys.archive.id': 'journey',
  'journeys.runs.id': 'journey',
  'compatMappings.list.journeyId': 'journey',
  'compatMappings.get.id': 'compatMapping',
  'compatMappings.create.journeyId': 'journey',
  'compatMappings.delete.id': 'compatMapping',
};

/** The rest of a valid input beside the id, for procedures that need more than the id. */
export const INPUT_BESIDE_ID: Record<string, Record<string, unknown>> = {
  'members.setRole': { role: 'developer' },
  'templates.update': { name: 'renamed_by_b' },
  'contacts.update': { name: 'Renamed by B' },
  'inboundWebhooks.update': { name: 'renamed by b' },
  'inboundWebhooks.promote': { live: true },
  'inboundWebhooks.preview': { samplePayload: { phone: '+15550001111', name: 'x' } },
  'campaigns.update': { name: 'renamed by b' },
  'journeys.update': { name: 'renamed by b' },
  'compatMappings.create': { kind: 'legacy_path', legacyPath: 'stolen-path' },
};

/** Procedures that filter a list by the id: another workspace's id gives an empty list (200), not 404. */
export const LIST_FILTERS = new Set(['messages.list', 'compatMappings.list']);

/** Id-like fields that name something outside the service (the provider's accounts, a legacy system's flows), not a record of a workspace. */
export const EXTERNAL_ID_FIELDS = new Set([
  'workspace.update.wabaId',
  'workspace.update.phoneNumberId',
  'compatMappings.create.organizationId',
  'compatMappings.create.flowId',
  'compatMappings.create.triggerId',
]);
