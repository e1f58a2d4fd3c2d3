import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen, rawRequest } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';

const NUL = 'a\u0000b';
const json = (token?: string) => ({ 'content-type': 'application/json', ...(token ? bearer(token) : {}) });

/** One tRPC call over HTTP, unbatched: queries put the input in the URL, mutations in the body. */
function trpc(base: string, token: string, path: string, type: 'query' | 'mutation', input: unknown) {
  if (type === 'query') return rawRequest(`${base}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: bearer(token) });
  return rawRequest(`${base}/trpc/${path}`, { method: 'POST', headers: json(token), body: JSON.stringify(input) });
}

describe('hostile input on the control plane', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    owner = await seedOperator(deps, { role: 'owner' });
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  it('answers a NUL in any procedure string input with 400, never 500 (tRPC)', async () => {
    // Every procedure that takes a string; a new one belongs here too.
    const calls: [string, 'query' | 'mutation', unknown, string?][] = [
      ['contacts.list', 'query', { search: NUL }],
      ['contacts.list', 'query', { cursor: NUL }],
      ['contacts.get', 'query', { id: NUL }],
      ['contacts.update', 'mutation', { id: NUL, name: 'x' }],
      ['contacts.update', 'mutation', { id: 'ct_x', name: NUL, externalReferenceId: NUL }],
      ['contacts.gdprExport', 'query', { id: NUL }],
      ['contacts.gdprErase', 'mutation', { id: NUL }],
      ['assistant.ask', 'mutation', { question: NUL }],
      ['members.add', 'mutation', { email: 'new@example.test', password: `long-enough-${NUL}`, role: 'viewer' }],
      ['members.remove', 'mutation', { id: NUL }],
      ['members.setRole', 'mutation', { id: NUL, role: 'viewer' }],
      ['apiKeys.create', 'mutation', { name: NUL }],
      ['apiKeys.revoke', 'mutation', { id: NUL }],
      ['secrets.set', 'mutation', { name: 'llm-api-key', value: NUL }],
      ['workspace.update', 'mutation', { llmModel: NUL }],
      ['workspace.update', 'mutation', { llmBaseUrl: `https://llm.example.test/${NUL}` }],
      ['templates.get', 'query', { id: NUL }],
      ['templates.create', 'mutation', { name: NUL }, 'create_failed'],
      ['templates.create', 'mutation', { name: 'ok', components: [{ type: 'BODY', text: NUL }] }, 'create_failed'],
      ['templates.update', 'mutation', { id: NUL }, 'update_failed'],
      ['templates.update', 'mutation', { id: 'tpl_x', language: NUL }, 'update_failed'],
      ['templates.delete', 'mutation', { id: NUL }],
      ['templates.submit', 'mutation', { id: NUL }],
      ['templates.revise', 'mutation', { id: NUL }],
      ['templates.validate', 'query', { name: NUL }],
      ['webhooks.get', 'query', { id: NUL }],
      ['webhooks.replay', 'mutation', { id: NUL }],
      ['webhookDeliveries.replay', 'mutation', { id: NUL }],
      ['webhookRejections.get', 'query', { id: NUL }],
      ['syncedTemplates.list', 'query', { limit: NUL }],
      ['webhookDeliveries.list', 'query', { limit: NUL }],
      ['account.events', 'query', { field: NUL }],
      ['account.events', 'query', { field: `account_update${NUL}` }],
    ];
    const answers = [];
    for (const [path, type, input] of calls) {
      const res = await trpc(cp.url, owner.token, path, type, input);
      answers.push([path, res.status, res.body?.error?.data?.appCode]);
    }
    expect(answers).toEqual(calls.map(([path, , , appCode = 'invalid_request']) => [path, 400, appCode]));
  });

  it('answers a NUL in a REST body, path id or login field with 400 in our error shape', async () => {
    const h = json(owner.token);
    const cases = [
      await jsonRequest(`${cp.url}/api/api-keys`, { headers: bearer(owner.token), body: { name: NUL } }),
      await jsonRequest(`${cp.url}/api/workspace`, { method: 'PATCH', headers: bearer(owner.token), body: { llmModel: NUL } }),
      await rawRequest(`${cp.url}/api/templates/tpl%00x`, { headers: h }),
      await rawRequest(`${cp.url}/api/secrets/llm-api-key%00`, { method: 'PUT', headers: h, body: '{"value":"v"}' }),
      await rawRequest(`${cp.url}/api/contacts/ct%00x/gdpr`, { method: 'DELETE', headers: h }),
      await jsonRequest(`${cp.url}/api/auth/login`, { body: { email: owner.email, password: owner.password, workspace: NUL } }),
    ];
    for (const res of cases) expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const template = await jsonRequest(`${cp.url}/api/templates`, {
      headers: bearer(owner.token),
      body: { name: 'x', components: [{ type: 'BODY', text: NUL }] },
    });
    expect(template).toMatchObject({ status: 400, body: { error: 'create_failed' } });
  });

  it('answers malformed percent-encoding in a path or the session cookie with 400', async () => {
    const badCookie = { cookie: 'mos_session=%E0%A4%A' };
    expect(await rawRequest(`${cp.url}/api/templates/%E0%A4%A`, { headers: bearer(owner.token) })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await rawRequest(`${cp.url}/api/me`, { headers: badCookie })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const viaTrpc = await rawRequest(`${cp.url}/trpc/auth.me`, { headers: badCookie });
    expect(viaTrpc).toMatchObject({ status: 400, body: { error: { data: { appCode: 'invalid_request' } } } });
    expect((await rawRequest(`${cp.url}/trpc/%E0%A4%A`, { headers: bearer(owner.token) })).status).toBeLessThan(500);
  });

  it('refuses an unsupported charset or Content-Encoding and a corrupt gzip body in our error shape', async () => {
    const post = (headers: Record<string, string>, body: string | Uint8Array) =>
      rawRequest(`${cp.url}/api/templates`, { method: 'POST', headers: { ...bearer(owner.token), ...headers }, body });
    const body = JSON.stringify({ name: 'hello' });
    expect(await post({ 'content-type': 'application/json; charset=utf-7' }, body)).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
    expect(await post({ 'content-type': 'application/json', 'content-encoding': 'x-foo' }, body)).toMatchObject({
      status: 415,
      body: { error: 'unsupported_media_type' },
    });
    expect(await post({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip at all')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    // The supported ones still work.
    expect(await post({ 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' }, gzipSync(body))).toMatchObject({
      status: 200,
      body: { template: { name: 'hello' } },
    });
  });

  it('answers 415 unsupported_media_type to a non-JSON body on JSON routes, REST and tRPC', async () => {
    const before = await jsonRequest(`${cp.url}/api/workspace`, { headers: bearer(owner.token) });
    const text = { ...bearer(owner.token), 'content-type': 'text/plain' };
    const unsupported = { status: 415, body: { error: 'unsupported_media_type' } };
    expect(await rawRequest(`${cp.url}/api/templates`, { method: 'POST', headers: text, body: '{"name":"t"}' })).toMatchObject(unsupported);
    expect(
      await rawRequest(`${cp.url}/api/auth/login`, { method: 'POST', headers: text, body: JSON.stringify({ email: owner.email, password: owner.password }) }),
    ).toMatchObject(unsupported);
    const trpcUnsupported = { status: 415, body: { error: { data: { appCode: 'unsupported_media_type' } } } };
    expect(await rawRequest(`${cp.url}/trpc/workspace.update`, { method: 'POST', headers: text, body: '{"llmModel":"m"}' })).toMatchObject(trpcUnsupported);
    // tRPC itself takes multipart and octet-stream; none of our procedures does.
    const form = new FormData();
    form.set('llmModel', 'm');
    const multipart = await fetch(`${cp.url}/trpc/workspace.update`, { method: 'POST', headers: bearer(owner.token), body: form });
    const multipartBody = (await multipart.json()) as { error?: { data?: { appCode?: string } } };
    expect({ status: multipart.status, appCode: multipartBody.error?.data?.appCode }).toEqual({ status: 415, appCode: 'unsupported_media_type' });
    const octets = { ...bearer(owner.token), 'content-type': 'application/octet-stream' };
    expect(await rawRequest(`${cp.url}/trpc/templates.seedStarterPack`, { method: 'POST', headers: octets, body: 'x' })).toMatchObject(trpcUnsupported);
    expect((await jsonRequest(`${cp.url}/api/workspace`, { headers: bearer(owner.token) })).body).toEqual(before.body);
    // Bodiless POSTs (no content type) are still fine.
    const other = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    expect(await rawRequest(`${cp.url}/api/auth/logout`, { method: 'POST', headers: bearer(other.token) })).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('limits /trpc bodies to 1 MB (413) and batches to 20 procedures', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) });
    const tooLarge = await rawRequest(`${cp.url}/trpc/apiKeys.create`, { method: 'POST', headers: json(owner.token), body: big });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: { data: { appCode: 'payload_too_large' } } } });
    const restTooLarge = await rawRequest(`${cp.url}/api/api-keys`, { method: 'POST', headers: json(owner.token), body: big });
    expect(restTooLarge).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });

    const batch = (n: number) => rawRequest(`${cp.url}/trpc/${Array(n).fill('auth.me').join(',')}?batch=1`, { headers: bearer(owner.token) });
    expect((await batch(20)).status).toBe(200);
    const over = await batch(21);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: { message: 'Batch call exceeds maximum size', data: { appCode: 'invalid_request' } } });
  });
});

describe('driver errors stay out of 5xx bodies', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  let owner: SeededOperator;
  const logs: Record<string, any>[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const log = pino({ level: 'error' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const deps = { ...testDeps(tdb.db), log };
    owner = await seedOperator(deps, { role: 'owner' });
    cp = await listen(createControlPlaneApp(deps));
    // Any query on these tables now fails inside the driver, with the SQL and its parameters in the message.
    await tdb.pool.query('ALTER TABLE contacts RENAME TO contacts_gone; ALTER TABLE api_keys RENAME TO api_keys_gone');
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  it('answers internal_error with a generic message over tRPC and REST, and logs the cause with the request id', async () => {
    const rid = { ...bearer(owner.token), 'x-request-id': 'req-leak-check' };
    const list = await rawRequest(`${cp.url}/trpc/contacts.list?input=${encodeURIComponent('{"search":"x"}')}`, { headers: rid });
    const create = await rawRequest(`${cp.url}/trpc/apiKeys.create`, {
      method: 'POST',
      headers: { ...rid, 'content-type': 'application/json' },
      body: '{"name":"k"}',
    });
    for (const res of [list, create]) {
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ message: 'Internal server error', data: { appCode: 'internal_error', code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify(res.body)).not.toMatch(/select|insert|params:|api_keys|Failed query|relation|ws_\w|\$1/i);
    }
    const rest = await jsonRequest(`${cp.url}/api/api-keys`, { headers: rid, body: { name: 'k' } });
    expect(rest).toMatchObject({ status: 500, body: { error: 'internal_error' } });
    expect(rest.body).toEqual({ error: 'internal_error' });

    const logged = logs.filter((l) => l.requestId === 'req-leak-check');
    expect(logged.map((l) => l.path)).toEqual(expect.arrayContaining(['contacts.list', 'apiKeys.create']));
    expect(JSON.stringify(logged)).toMatch(/api_keys/);
  });
});
