import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { createLogger } from '@mos/config';
import { createVault, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createProviderClient, providerClientFromEnv, type ProviderClient } from '@mos/provider';
import { createTemplateActivities } from './activities';
import { TemplateSyncFailureType } from './contract';

/**
 * How a sync page fails or skips, against real PostgreSQL. The provider is either the refusing
 * client a worker gets without PROVIDER_BASE_URL, or the real HTTP client talking to a local
 * server that answers as the provider does on errors (Graph-style error bodies). Successful
 * pages against the provider simulator are covered in services/api (internal-templates.test.ts).
 */
const log = createLogger({ name: 'template-activities-test', level: 'silent' });
const vault = createVault(randomBytes(32), { MOS_ENV: 'test' });

let tdb: TestDatabase;
let server: Server;
let baseUrl: string;
let withToken: string;
/** The status and body the local provider answers with next. */
let answer: { status: number; body: unknown } = { status: 200, body: { data: [] } };

beforeAll(async () => {
  tdb = await createTestDatabase();
  withToken = (await upsertWorkspace(tdb.db, 'sync-with-token', { wabaId: '4440002' })).workspace.id;
  await vault.set(tdb.db, withToken, 'provider-access-token', 'token-1');
  server = createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await tdb?.drop();
});

const activitiesWith = (provider: ProviderClient) => createTemplateActivities({ db: tdb.db, log, vault, provider });
const httpProvider = () => createProviderClient({ baseUrl, apiVersion: 'v23.0', timeoutMs: 2_000 });

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('syncTemplatePage failures and skips', () => {
  it('an unknown workspace fails non-retryably as WorkspaceNotFound', async () => {
    const failure = await failureOf(activitiesWith(httpProvider()).syncTemplatePage({ workspaceId: 'ws_missing', pageSize: 10 }));
    expect(failure).toMatchObject({ type: TemplateSyncFailureType.WorkspaceNotFound, nonRetryable: true, message: 'workspace ws_missing not found' });
  });

  it('a workspace without a business account or without a token is skipped, saying which', async () => {
    const noWaba = (await upsertWorkspace(tdb.db, 'sync-no-waba')).workspace.id;
    const noToken = (await upsertWorkspace(tdb.db, 'sync-no-token', { wabaId: '4440003' })).workspace.id;
    const activities = activitiesWith(httpProvider());
    expect(await activities.syncTemplatePage({ workspaceId: noWaba, pageSize: 10 })).toEqual({ upserted: 0, skipped: 'no_waba' });
    expect(await activities.syncTemplatePage({ workspaceId: noToken, pageSize: 10 })).toEqual({ upserted: 0, skipped: 'no_access_token' });
  });

  it('without a provider configured, a page fails non-retryably as ProviderRejected', async () => {
    const failure = await failureOf(
      activitiesWith(providerClientFromEnv({ PROVIDER_API_VERSION: 'v23.0' })).syncTemplatePage({ workspaceId: withToken, pageSize: 10 }),
    );
    expect(failure).toMatchObject({ type: TemplateSyncFailureType.ProviderRejected, nonRetryable: true });
    expect(failure.message).toMatch(/no provider configured/i);
  });

  it("a provider 4xx fails non-retryably as ProviderRejected with the provider's words", async () => {
    answer = { status: 401, body: { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: 'A1' } } };
    const failure = await failureOf(activitiesWith(httpProvider()).syncTemplatePage({ workspaceId: withToken, pageSize: 10 }));
    expect(failure).toMatchObject({ type: TemplateSyncFailureType.ProviderRejected, nonRetryable: true, message: 'Invalid OAuth access token.' });
    expect(failure.details).toEqual([expect.objectContaining({ code: 190 })]);
  });

  it('a provider 5xx is thrown as is, so Temporal retries the page', async () => {
    answer = { status: 503, body: { error: { message: 'Service temporarily unavailable', code: 2, is_transient: true } } };
    const err = await activitiesWith(httpProvider())
      .syncTemplatePage({ workspaceId: withToken, pageSize: 10 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ name: 'ProviderError', retryable: true });
  });
});
