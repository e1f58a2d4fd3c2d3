import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen, rawRequest } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createApiApp } from '../app';

const SERVICE_TOKEN = randomBytes(24).toString('hex');
const invalid = { status: 400, body: { error: 'invalid_request' } };
const unsupported = { status: 415, body: { error: 'unsupported_media_type' } };

describe('hostile input on the API app', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let op: SeededOperator;
  const logs: Record<string, any>[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const log = pino({ level: 'error' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    deps = { ...testDeps(tdb.db, { env: { MOS_SERVICE_TOKEN: SERVICE_TOKEN } }), log };
    api = await listen(createApiApp(deps));
    op = await seedOperator(deps, { role: 'owner' });
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  it('answers a NUL in an /internal path id or query parameter with 400 invalid_request', async () => {
    const get = (path: string) => rawRequest(`${api.url}${path}`, { headers: bearer(op.token) });
    const post = (path: string) => rawRequest(`${api.url}${path}`, { method: 'POST', headers: bearer(op.token) });
    const answers = [
      await get('/internal/webhooks/evt%00x'),
      await post('/internal/webhooks/evt%00x/replay'),
      await post('/internal/webhook-events/del%00x/replay'),
      await get('/internal/webhook-rejections/rej%00x'),
      await get('/internal/webhooks?topic=%00'),
      await get('/internal/webhooks?limit=1%00'),
      await get('/internal/webhook-events?limit=%00'),
      await get('/internal/webhook-rejections?offset=0%00'),
      await get('/internal/contacts?limit=%001'),
      await get('/internal/audit-logs?limit=%00'),
      await get('/internal/templates?offset=%00'),
      await get('/internal/account-events?field=%00'),
      await get('/internal/account-events?limit=%00'),
      await get('/internal/account-events?offset=0%00'),
    ];
    for (const res of answers) expect(res).toMatchObject(invalid);
  });

  it('answers a NUL in a service-route body, even deep in free-form JSON, with 400 invalid_request', async () => {
    const service = (path: string, body: unknown) => jsonRequest(`${api.url}${path}`, { headers: bearer(SERVICE_TOKEN), body });
    expect(await service('/internal/templates/sync', { workspaceId: 'ws\u0000' })).toMatchObject(invalid);
    const template = { workspaceId: op.workspaceId, providerTemplateId: '123', name: 'n', language: 'en_US', status: 'APPROVED' };
    expect(await service('/internal/templates', { ...template, name: 'n\u0000' })).toMatchObject(invalid);
    expect(await service('/internal/templates', { ...template, components: [{ type: 'BODY', nested: [{ text: 'a\u0000' }] }] })).toMatchObject(invalid);
    expect(await service('/internal/templates', { ...template, components: [{ ['k\u0000']: 'v' }] })).toMatchObject(invalid);
  });

  it('answers malformed percent-encoding in a path or the session cookie with 400', async () => {
    expect(await rawRequest(`${api.url}/internal/webhooks/%E0%A4%A`, { headers: bearer(op.token) })).toMatchObject(invalid);
    expect(await rawRequest(`${api.url}/internal/runtime`, { headers: { cookie: 'mos_session=%E0%A4%A' } })).toMatchObject(invalid);
  });

  it('refuses non-JSON bodies, unsupported charsets and encodings, and corrupt gzip on JSON routes', async () => {
    const sync = (headers: Record<string, string>, body: string) =>
      rawRequest(`${api.url}/internal/templates/sync`, { method: 'POST', headers: { ...bearer(SERVICE_TOKEN), ...headers }, body });
    const body = JSON.stringify({ workspaceId: 'ws_nope' });
    expect(await sync({ 'content-type': 'text/plain' }, body)).toMatchObject(unsupported);
    expect(await sync({ 'content-type': 'application/json; charset=utf-7' }, body)).toMatchObject(unsupported);
    expect(await sync({ 'content-type': 'application/json', 'content-encoding': 'x-foo' }, body)).toMatchObject(unsupported);
    expect(await sync({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip')).toMatchObject(invalid);
    expect(await sync({ 'content-type': 'application/json' }, body)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const login = JSON.stringify({ email: op.email, password: op.password });
    expect(await rawRequest(`${api.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: login })).toMatchObject(
      unsupported,
    );
  });

  it('answers a driver failure with a bare 500 internal_error and logs it with the request id', async () => {
    await tdb.pool.query('ALTER TABLE contacts RENAME TO contacts_gone');
    const res = await rawRequest(`${api.url}/internal/contacts`, { headers: { ...bearer(op.token), 'x-request-id': 'req-internal-leak' } });
    expect(res).toMatchObject({ status: 500 });
    expect(res.body).toEqual({ error: 'internal_error' });
    expect(JSON.stringify(logs.filter((l) => l.requestId === 'req-internal-leak'))).toMatch(/contacts/);
  });
});
