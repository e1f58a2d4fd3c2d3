import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, ROLES, SETTINGS_ROLES, type Role } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { expressRoutes, jsonRequest, listen } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { CREDENTIALS, seedCredentials, seedWorkspaceEntities, testDeps, withFreshSessions, type SeededCredentials } from '@mos/app/testing';
import { createApiApp } from './app';

/**
 * Every route of the API app, discovered from its Express stack, against every kind of caller
 * plus the two platform tokens. What each route accepts is declared below (requireRole and the
 * key checks are closures, not introspectable), from the spec's Authentication table and
 * docs/security.md; a route missing from POLICY fails the suite.
 */
type Policy =
  /** Probes and the /v1 reference: no credential needed, none changes the answer. */
  | 'public'
  /** Provider ingress and inbound webhooks: their own signatures; no credential of ours changes the answer. */
  | 'signature'
  /** /v1 and the legacy-compatible paths: a live workspace API key (compat: or the partner secret, not sent here). */
  | 'apiKey'
  /** Machine-to-machine template routes: MOS_SERVICE_TOKEN only. */
  | 'serviceToken'
  /** GET /metrics with MOS_METRICS_TOKEN configured: that token only. */
  | 'metricsToken'
  /** Sign-out: any live operator session. */
  | 'session'
  /** /internal reads: any operator; replays: the settings roles. */
  | { roles: readonly Role[] };

const operator = { roles: ROLES };
const settings = { roles: SETTINGS_ROLES };

const POLICY: Record<string, Policy> = {
  'get /health': 'public',
  'get /ready': 'public',
  'get /webhooks/messaging': 'signature',
  'get /webhooks/messaging/:workspaceSlug': 'signature',
  'post /webhooks/messaging': 'signature',
  'post /webhooks/messaging/:workspaceSlug': 'signature',
  'post /webhooks/provider': 'signature',
  'post /webhooks/provider/:workspaceSlug': 'signature',
  'get /metrics': 'metricsToken',
  'post /api/v1/inbound-webhooks/:slug': 'signature',
  'post /compat/contact': 'apiKey',
  'put /api/v1beta/contact/': 'apiKey',
  'post /compat/journey-trigger/*legacyPath': 'apiKey',
  'post /webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/': 'apiKey',
  'post /webhooks/v0/rest-trigger/organization/:organizationId/flow/:flowId/trigger/:triggerId/': 'apiKey',
  'post /api/v0/webhooks/incoming/partner/custom_external_event': 'apiKey',
  'post /api/auth/login': 'public',
  'post /api/auth/logout': 'session',
  'get /v1/openapi.json': 'public',
  'get /v1/docs': 'public',
  'get /v1/docs/assets/mos-init.js': 'public',
  'get /v1/docs/assets/:file': 'public',
  'get /v1/contacts': 'apiKey',
  'post /v1/messages': 'apiKey',
  'get /v1/messages/:id': 'apiKey',
  'get /v1/templates': 'apiKey',
  'post /v1/broadcasts': 'apiKey',
  'get /v1/broadcasts/:id': 'apiKey',
  'post /v1/broadcasts/:id/pause': 'apiKey',
  'post /v1/broadcasts/:id/resume': 'apiKey',
  'post /v1/broadcasts/:id/cancel': 'apiKey',
  'post /internal/templates/sync': 'serviceToken',
  'post /internal/templates': 'serviceToken',
  'get /internal/webhooks': operator,
  'get /internal/webhooks/:id': operator,
  'post /internal/webhooks/:id/replay': settings,
  'get /internal/webhook-events': operator,
  'post /internal/webhook-events/:id/replay': settings,
  'get /internal/webhook-rejections': operator,
  'get /internal/webhook-rejections/:id': operator,
  'get /internal/audit-logs': operator,
  'get /internal/runtime': operator,
  'get /internal/contacts': operator,
  'get /internal/templates': operator,
  'get /internal/account-events': operator,
  'get /internal/account-limits': operator,
  'get /internal/messages': operator,
  'get /internal/messages/:id': operator,
  'get /internal/broadcasts': operator,
  'get /internal/broadcasts/:id': operator,
  'get /internal/campaigns': operator,
  'get /internal/campaigns/:id': operator,
  'get /internal/journeys': operator,
};

const API_CREDENTIALS = [...CREDENTIALS, 'serviceToken', 'metricsToken'] as const;
type ApiCredential = (typeof API_CREDENTIALS)[number];
type Cell = number | 'authorized' | `${number} (server error)`;

const SESSION_ROLE: Partial<Record<ApiCredential, Role>> = { viewer: 'viewer', developer: 'developer', admin: 'admin', owner: 'owner', otherOwner: 'owner' };
const SERVICE_TOKEN = `svc-${'s'.repeat(40)}`;
const METRICS_TOKEN = `met-${'m'.repeat(40)}`;

/** The expected cell, or null where the answer must be the anonymous caller's whatever it is. */
function expected(policy: Policy, credential: ApiCredential): Cell | null {
  if (policy === 'public' || policy === 'signature') return null;
  if (policy === 'apiKey') return credential === 'apiKey' ? 'authorized' : 401;
  if (policy === 'serviceToken') return credential === 'serviceToken' ? 'authorized' : 401;
  if (policy === 'metricsToken') return credential === 'metricsToken' ? 'authorized' : 401;
  const role = SESSION_ROLE[credential];
  if (!role) return 401;
  return policy === 'session' || policy.roles.includes(role) ? 'authorized' : 403;
}

const cellOf = (status: number): Cell => (status >= 500 ? `${status} (server error)` : status === 401 || status === 403 ? status : 'authorized');

describe('API security matrix', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let creds: SeededCredentials;
  let headers: Record<ApiCredential, Record<string, string>>;
  let aIds: string[];
  let routes: string[];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, {
      env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}`, MOS_SERVICE_TOKEN: SERVICE_TOKEN, MOS_METRICS_TOKEN: METRICS_TOKEN },
    });
    const app = createApiApp(deps);
    routes = expressRoutes(app).map((r) => `${r.method} ${r.path}`);
    api = await listen(app);
    creds = await seedCredentials(deps);
    headers = { ...creds.headers, serviceToken: { authorization: `Bearer ${SERVICE_TOKEN}` }, metricsToken: { authorization: `Bearer ${METRICS_TOKEN}` } };
    const entities = await seedWorkspaceEntities(deps, creds.a.owner);
    aIds = [creds.a.owner.workspaceId, ...Object.values(creds.a).map((op) => op.memberId), ...Object.values(entities)];
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await deps?.temporal.close();
    await tdb?.drop();
  });

  const request = (route: string, h: Record<string, string>) => {
    const [method, pattern] = route.split(' ') as [string, string];
    const path = pattern.replace(/[:*](\w+)/g, (_m, name: string) => `zz-missing-${name}`);
    return jsonRequest(`${api.url}${path}`, { method: method.toUpperCase(), headers: h, ...(method === 'get' ? {} : { body: {} }) });
  };

  async function check(route: string, credentials: Record<ApiCredential, Record<string, string>>) {
    const policy = POLICY[route];
    expect(policy, `${route} needs a policy`).toBeDefined();
    const answers = await Promise.all(API_CREDENTIALS.map(async (c) => [c, await request(route, credentials[c])] as const));
    const status = Object.fromEntries(answers.map(([c, res]) => [c, res.status])) as Record<ApiCredential, number>;
    const leaked = answers.filter(([c]) => c === 'otherOwner').flatMap(([, res]) => aIds.filter((id) => JSON.stringify(res.body).includes(id)));
    expect(leaked, "another workspace's owner sees none of A's ids").toEqual([]);
    if (policy === 'public') expect([401, 403]).not.toContain(status.none);
    expect(Object.fromEntries(API_CREDENTIALS.map((c) => [c, expected(policy!, c) === null ? status[c] : cellOf(status[c])]))).toEqual(
      Object.fromEntries(API_CREDENTIALS.map((c) => [c, expected(policy!, c) ?? status.none])),
    );
  }

  it('classifies every route, and only routes that exist', () => {
    expect(routes.filter((r) => !(r in POLICY))).toEqual([]);
    expect(Object.keys(POLICY).filter((r) => !routes.includes(r))).toEqual([]);
  });

  // Rows are independent (sign-out ends sessions of its own), so they run side by side.
  it.concurrent.each(Object.keys(POLICY).filter((r) => r !== 'post /api/auth/logout'))('%s', async (route) => {
    await check(route, headers);
  });

  it.concurrent('post /api/auth/logout', async () => {
    const fresh = await withFreshSessions(deps, creds);
    await check('post /api/auth/logout', { ...fresh, serviceToken: headers.serviceToken, metricsToken: headers.metricsToken });
  });
});
