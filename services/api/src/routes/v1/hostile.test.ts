import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../../app';
import { seedApiKey, v1Raw, type SeededKey } from './testing';

/** Whatever arrives, /v1 answers 4xx in the `{error, message?, issues?}` shape: never a 5xx. */
describe('hostile input on /v1', () => {
  let tdb: TestDatabase;
  let api: Awaited<ReturnType<typeof listen>>;
  let k: SeededKey;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    k = await seedApiKey(deps);
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const json = { 'content-type': 'application/json' };
  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = json) =>
    v1Raw(api.url, k.key, path, { method: 'POST', headers, body });
  const ourShape = (res: { status: number; body: unknown; headers: Headers }, what: string, status: number, error: string) => {
    expect(res.status, what).toBe(status);
    expect(res.body, what).toMatchObject({ error });
    expect(
      Object.keys(res.body as object).every((key) => ['error', 'message', 'issues'].includes(key)),
      what,
    ).toBe(true);
    expect(res.headers.get('ratelimit-limit'), what).not.toBeNull();
  };

  it('bodies: invalid JSON, wrong content types and charsets, corrupt or unknown encodings, oversize', async () => {
    const valid = JSON.stringify({ to: '+393331234567', type: 'text', text: { body: 'hi' } });
    ourShape(await post('/messages', '{"to": "+3933'), 'truncated JSON', 400, 'invalid_request');
    ourShape(await post('/messages', 'null'), 'JSON null', 400, 'invalid_request');
    ourShape(await post('/messages', '"a string"'), 'JSON string', 400, 'invalid_request');
    ourShape(await post('/messages', valid, { 'content-type': 'text/plain' }), 'text/plain', 415, 'unsupported_media_type');
    ourShape(await post('/messages', valid, { 'content-type': 'application/x-www-form-urlencoded' }), 'form', 415, 'unsupported_media_type');
    ourShape(await post('/broadcasts', valid, { 'content-type': 'application/json; charset=utf-16' }), 'utf-16', 415, 'unsupported_media_type');
    ourShape(await post('/messages', valid, { ...json, 'content-encoding': 'x-foo' }), 'unknown encoding', 415, 'unsupported_media_type');
    ourShape(await post('/messages', 'not gzip', { ...json, 'content-encoding': 'gzip' }), 'corrupt gzip', 400, 'invalid_request');
    const big = JSON.stringify({ to: '+393331234567', type: 'text', text: { body: 'x'.repeat(70_000) } });
    ourShape(await post('/messages', big), 'over 64 kb', 413, 'payload_too_large');
    // A gzip bomb inflates past the limit and is refused as such.
    ourShape(await post('/messages', gzipSync(Buffer.from(big)), { ...json, 'content-encoding': 'gzip' }), 'inflates past 64 kb', 413, 'payload_too_large');
  });

  it('bodies: deep nesting, prototype keys, NUL bytes in values and keys', async () => {
    const deep = `{"to":"+393331234567","type":"text","text":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    ourShape(await post('/messages', deep), 'deep arrays', 400, 'validation_failed');
    const deepUnknown = `{"to":"+393331234567","type":"text","text":{"body":"hi"},"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    ourShape(await post('/messages', deepUnknown), 'deep objects under an unknown key', 400, 'validation_failed');
    ourShape(await post('/broadcasts', `{"segment":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`), 'deep segment', 400, 'validation_failed');
    ourShape(await post('/messages', '{"__proto__":{"x":1},"to":"+393331234567","type":"text","text":{"body":"hi"}}'), '__proto__', 400, 'validation_failed');
    ourShape(
      await post('/messages', '{"constructor":{"prototype":{}},"to":"+393331234567","type":"text","text":{"body":"hi"}}'),
      'constructor',
      400,
      'validation_failed',
    );
    ourShape(await post('/messages', '{"to":"+393331234567","type":"text","text":{"body":"a\\u0000b"}}'), 'escaped NUL', 400, 'validation_failed');
    ourShape(await post('/messages', '{"to":"+393331234567","type":"text","text":{"body":"hi","k\\u0000":1}}'), 'NUL in a key', 400, 'validation_failed');
    ourShape(
      await post('/broadcasts', '{"template":{"name":"a","language":"en"},"segment":{"contactIds":["ctr_\\u0000"]}}'),
      'NUL in a list',
      400,
      'validation_failed',
    );
  });

  it('paths and query strings: NUL, malformed percent-encoding, arrays, odd types', async () => {
    const get = (path: string) => v1Raw(api.url, k.key, path);
    ourShape(await get('/messages/%E0%A4%A'), 'broken percent-encoding in a path', 400, 'invalid_request');
    ourShape(await get('/broadcasts/%E0%A4%A'), 'broken percent-encoding in a path', 400, 'invalid_request');
    ourShape(await get('/messages/msg%00'), 'NUL in an id', 404, 'message_not_found');
    ourShape(await get('/contacts?phone=%E0%A4%A'), 'broken percent-encoding in a query', 400, 'validation_failed');
    ourShape(await get('/contacts?email=%00'), 'NUL in a query', 400, 'validation_failed');
    ourShape(await get('/contacts?limit=1&limit=2'), 'repeated parameter', 400, 'validation_failed');
    ourShape(await get('/contacts?cursor=' + 'A'.repeat(5000)), 'huge cursor', 400, 'validation_failed');
    ourShape(await get('/contacts?updatedSince=%2B275760-09-13T00:00:00.001Z'), 'out-of-range time', 400, 'validation_failed');
    ourShape(await get('/templates?%00=1'), 'NUL in a parameter name', 400, 'validation_failed');
  });
});
