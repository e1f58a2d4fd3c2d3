import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from './router';

/**
 * One name per concept: the routers are named after the spec's resources, and every list
 * answers the spec's named array (the same body as its REST twin), declared in `.output()`.
 */
const LISTS: Record<string, string> = {
  'members.list': 'members', // GET /api/members
  'apiKeys.list': 'apiKeys', // GET /api/api-keys
  'secrets.list': 'secrets', // GET /api/secrets
  'templates.list': 'templates', // GET /api/templates (the library)
  'syncedTemplates.list': 'templates', // GET /internal/templates
  'webhooks.list': 'webhooks', // GET /internal/webhooks (evt_)
  'webhookDeliveries.list': 'webhookDeliveries', // GET /internal/webhook-events (del_)
  'webhookRejections.list': 'webhookRejections', // GET /internal/webhook-rejections
  'auditLogs.list': 'auditLogEntries', // GET /internal/audit-logs
  'contacts.list': 'contacts', // keyset pages: + nextCursor
  'account.events': 'accountEvents', // GET /internal/account-events
  'account.limits': 'channelLimits', // GET /internal/account-limits
  'messages.list': 'messages', // GET /internal/messages: keyset pages, + nextCursor
  'broadcasts.list': 'broadcasts', // GET /internal/broadcasts: keyset pages, + nextCursor
  'inboundWebhooks.list': 'inboundWebhooks', // GET /api/inbound-webhooks (runs: inboundWebhooks.runs, keyset)
  'campaigns.list': 'campaigns', // GET /internal/campaigns
  'journeys.list': 'journeys', // GET /internal/journeys
  'compatMappings.list': 'compatMappings',
};
/** Lists that page by cursor answer `nextCursor` beside the array. */
const KEYSET = new Set(['contacts.list', 'messages.list', 'broadcasts.list']);

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>;

describe('the router', () => {
  it('names each feature router after the spec resource', () => {
    expect(Object.keys(appRouter._def.record).sort()).toEqual(
      [
        'account',
        'apiKeys',
        'assistant',
        'auditLogs',
        'auth',
        'broadcasts',
        'campaigns',
        'compatMappings',
        'contacts',
        'inboundWebhooks',
        'journeys',
        'members',
        'messages',
        'runtime',
        'secrets',
        'syncedTemplates',
        'templates',
        'webhookDeliveries',
        'webhookRejections',
        'webhooks',
        'workspace',
      ].sort(),
    );
  });

  it('knows every list procedure (a new one belongs in LISTS)', () => {
    const lists = Object.keys(procedures).filter((path) => path.endsWith('.list'));
    expect(lists.filter((path) => !(path in LISTS))).toEqual([]);
  });

  it.each(Object.entries(LISTS))('%s declares the envelope { %s: [...] }', (path, key) => {
    const output = procedures[path]?._def.output;
    expect(output, `${path} has no .output()`).toBeInstanceOf(z.ZodObject);
    const shape = (output as z.ZodObject).shape;
    expect(Object.keys(shape)).toEqual(KEYSET.has(path) ? [key, 'nextCursor'] : [key]);
    expect(shape[key]).toBeInstanceOf(z.ZodArray);
  });
});
