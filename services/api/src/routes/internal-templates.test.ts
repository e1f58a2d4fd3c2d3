import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { findTemplateByKey, insertTemplate, updateTemplate } from '@mos/db';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { createProviderClient } from '@mos/provider';
import { startSimulator, type RunningSimulator } from '@mos/provider/simulator';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import type { AppDeps } from '@mos/app';
import { createLogger } from '@mos/config';
import { createTemplateActivities, ensureTemplateSyncSchedule, WORKFLOWS_PATH } from '@mos/workflows';
import { createApiApp } from '../app';

const SERVICE_TOKEN = randomBytes(24).toString('hex');
const WABA = '4440001';
const body = (text: string) => [{ type: 'BODY', text, example: { body_text: [['Ann']] } }];

/**
 * /internal/templates against real PostgreSQL, a real Temporal worker running the
 * templateSync workflow (own task queue) and the provider simulator holding the templates.
 */
describe('/internal/templates', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let api: Awaited<ReturnType<typeof listen>>;
  let deps: AppDeps;
  let op: SeededOperator;
  let worker: Worker;
  let running: Promise<void>;
  let connection: NativeConnection;
  let client: Client;
  const temporal = () => client;
  const taskQueue = `test-template-sync-${randomBytes(5).toString('hex')}`;
  const service = (path: string, payload: unknown, token = SERVICE_TOKEN) =>
    jsonRequest(`${api.url}${path}`, { method: 'POST', headers: bearer(token), body: payload });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    sim = await startSimulator({ accessToken: 'sim-token' });
    deps = testDeps(tdb.db, {
      env: { PROVIDER_BASE_URL: sim.url, MOS_SERVICE_TOKEN: SERVICE_TOKEN, TEMPORAL_TASK_QUEUE: taskQueue, TEMPORAL_NAMESPACE: 'default' },
    });
    api = await listen(createApiApp(deps));
    op = await seedOperator(deps, { role: 'viewer', wabaId: WABA });
    await deps.vault.set(tdb.db, op.workspaceId, 'provider-access-token', 'sim-token');
    connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    worker = await Worker.create({
      connection,
      namespace: 'default',
      taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: createTemplateActivities({
        db: tdb.db,
        log: createLogger({ name: 'test', level: 'silent' }),
        vault: deps.vault,
        provider: createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0' }),
      }),
    });
    running = worker.run();
    client = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! }), namespace: 'default' });
  }, 120_000);
  afterAll(async () => {
    await client?.connection.close();
    worker?.shutdown();
    await running?.catch(() => undefined);
    await connection?.close();
    await api?.close();
    await deps?.temporal.close();
    await sim?.close();
    await tdb?.drop();
  });

  it('GET lists the session workspace only, with limit/offset checked', async () => {
    expect(await jsonRequest(`${api.url}/internal/templates`)).toMatchObject({ status: 401 });
    expect(await jsonRequest(`${api.url}/internal/templates`, { headers: bearer(op.token) })).toMatchObject({ status: 200, body: { templates: [] } });
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      expect(await jsonRequest(`${api.url}/internal/templates?${q}`, { headers: bearer(op.token) }), q).toMatchObject({
        status: 400,
        body: { error: 'invalid_query' },
      });
    }
    expect((await jsonRequest(`${api.url}/internal/templates?limit=200&offset=0`, { headers: bearer(op.token) })).status).toBe(200);
  });

  it('service routes require the service token', async () => {
    for (const token of ['', 'wrong', op.token]) {
      expect(await service('/internal/templates/sync', { workspaceId: op.workspaceId }, token), token).toMatchObject({
        status: 401,
        body: { error: 'unauthenticated' },
      });
      expect((await service('/internal/templates', {}, token)).status).toBe(401);
    }
    expect(await service('/internal/templates/sync', {})).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await service('/internal/templates/sync', { workspaceId: 'ws_nope' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('POST /internal/templates/sync pages through the provider and upserts every template', async () => {
    const provider = createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0' });
    const auth = { wabaId: WABA, accessToken: 'sim-token' };
    for (let i = 0; i < 5; i++)
      await provider.createTemplate(auth, {
        name: `synced_${i}`,
        language: 'it',
        category: 'MARKETING',
        components: body(`Ciao {{1}}, questa è la prova numero ${i} per te`),
      });
    const first = sim.templates().find((t) => t.name === 'synced_0')!;
    await sim.review(first.id, 'APPROVED');

    const res = await service('/internal/templates/sync', { workspaceId: op.workspaceId });
    expect(res).toMatchObject({ status: 202, body: { accepted: true, workflowId: `template-sync-${op.workspaceId}`, runId: expect.any(String) } });
    const result = await temporal().workflow.getHandle(res.body.workflowId, res.body.runId).result();
    expect(result).toMatchObject({ workspaceId: op.workspaceId, pages: 1, upserted: 5 });
    // Small pages: the workflow follows the provider's cursors to the end.
    const paged = await temporal().workflow.execute('templateSync', {
      taskQueue,
      workflowId: `paged-${randomBytes(4).toString('hex')}`,
      args: [{ workspaceId: op.workspaceId, pageSize: 2 }],
    });
    expect(paged).toEqual({ workspaceId: op.workspaceId, pages: 3, upserted: 5 });

    const list = (await jsonRequest(`${api.url}/internal/templates`, { headers: bearer(op.token) })).body.templates;
    expect(list.map((t: { name: string }) => t.name)).toEqual(['synced_0', 'synced_1', 'synced_2', 'synced_3', 'synced_4']);
    expect(list[0]).toMatchObject({
      id: expect.stringMatching(/^tpl_/),
      status: 'approved',
      category: 'MARKETING',
      language: 'it',
      components: [{ type: 'BODY', text: expect.stringContaining('{{1}}') }],
    });
    expect(list[1].status).toBe('pending_approval');
    const page = (await jsonRequest(`${api.url}/internal/templates?limit=2&offset=3`, { headers: bearer(op.token) })).body.templates;
    expect(page.map((t: { name: string }) => t.name)).toEqual(['synced_3', 'synced_4']);

    // A second sync converges on the same rows.
    const again = await service('/internal/templates/sync', { workspaceId: op.workspaceId });
    expect(again.status).toBe(202);
    const stranger = await seedOperator(deps, { role: 'owner' });
    expect((await jsonRequest(`${api.url}/internal/templates`, { headers: bearer(stranger.token) })).body.templates).toEqual([]);
  });

  it('POST /internal/templates applies one provider update to both the synced list and the library', async () => {
    const row = await insertTemplate(
      tdb.db,
      op.workspaceId,
      { name: 'from_event', language: 'en_US', category: 'UTILITY', parameterFormat: 'POSITIONAL', components: body('Hi {{1}}, thanks a lot friend') },
      new Date(),
    );
    await updateTemplate(tdb.db, op.workspaceId, row.id, { status: 'pending_approval', providerTemplateId: '777' }, new Date());
    const res = await service('/internal/templates', {
      workspaceId: op.workspaceId,
      providerTemplateId: '777',
      name: 'from_event',
      language: 'en_US',
      status: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { template: { providerTemplateId: '777', status: 'rejected', rejectionReason: 'INVALID_FORMAT', category: 'UTILITY' } },
    });
    expect(res.body.template.components).toEqual(row.components);
    expect(await findTemplateByKey(tdb.db, op.workspaceId, 'from_event', 'en_US')).toMatchObject({ status: 'rejected', rejectionReason: 'INVALID_FORMAT' });
    const withComponents = await service('/internal/templates', {
      workspaceId: op.workspaceId,
      providerTemplateId: '778',
      name: 'other',
      language: 'it',
      status: 'APPROVED',
      category: 'MARKETING',
      components: body('Nuovo {{1}} testo qui ok'),
    });
    expect(withComponents.body.template).toMatchObject({ status: 'approved', components: body('Nuovo {{1}} testo qui ok') });
    expect(await service('/internal/templates', { workspaceId: op.workspaceId, name: 'x' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('the nightly schedule is created once and its action resyncs every workspace with a business account', async () => {
    const scheduleId = `template-sync-test-${randomBytes(4).toString('hex')}`;
    expect(await ensureTemplateSyncSchedule(temporal(), { taskQueue, scheduleId })).toEqual({ created: true });
    expect(await ensureTemplateSyncSchedule(temporal(), { taskQueue, scheduleId })).toEqual({ created: false });
    const described = await temporal().schedule.getHandle(scheduleId).describe();
    expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 3 }], minute: [{ start: 15 }] });
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'templateSyncAll', taskQueue });
    await temporal().schedule.getHandle(scheduleId).delete();
    await expect(temporal().schedule.getHandle(scheduleId).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);

    const all = await temporal().workflow.execute('templateSyncAll', { taskQueue, workflowId: `all-${randomBytes(4).toString('hex')}`, args: [] });
    expect(all).toEqual({ workspaces: 1 });
  });
});
