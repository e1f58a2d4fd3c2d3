import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { signProviderBody } from '@mos/core';
import { webhookEvents } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../app';
import { fixture, postWebhook, seedIngressWorkspace, SIGNING_SECRET } from '../testing/webhooks';

/** Every delivery is stored and answered 200, however odd its query string or encoding. */
describe('provider webhook ingress under hostile input', () => {
  let tdb: TestDatabase;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    server = await listen(createApiApp(deps));
    await seedIngressWorkspace(deps);
  });
  afterAll(async () => {
    await server?.close();
    await tdb?.drop();
  });

  const row = async (id: string) => (await tdb.db.select().from(webhookEvents).where(eq(webhookEvents.id, id)))[0]!;

  it('a NUL in the query string (key and value) is stored, visibly escaped, and answered 200', async () => {
    const res = await postWebhook(server.url, fixture('inbound-text.json'), { path: '/webhooks/messaging?note=a%00b&k%00=v' });
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(true);
    expect((await row(res.body.webhookEventId)).query).toEqual({ note: 'a\\u0000b', 'k\\u0000': 'v' });
  });

  it('broken percent-encoding in the query is stored as sent, not a 400 or 500', async () => {
    const res = await postWebhook(server.url, fixture('inbound-text.json'), { path: '/webhooks/messaging?x=%E0%A4%A&y=%zz' });
    expect(res.status).toBe(200);
    expect((await row(res.body.webhookEventId)).query).toMatchObject({ x: expect.any(String), y: '%zz' });
  });

  it('a gzip body signed over its JSON payload verifies, and the payload is what is stored', async () => {
    const json = fixture('inbound-text.json');
    const res = await postWebhook(server.url, gzipSync(json), { signature: signProviderBody(SIGNING_SECRET, json), headers: { 'content-encoding': 'gzip' } });
    expect(res).toMatchObject({ status: 200, body: { accepted: true, summary: { topic: 'messages' } } });
    const stored = await row(res.body.webhookEventId);
    expect(stored.rawBody!.equals(json)).toBe(true);
    expect(stored.headers['content-encoding']).toBe('gzip');
  });

  it('a corrupt gzip body is stored as received, answered 200, and says why it failed', async () => {
    const garbage = Buffer.from('\x1f\x8b\x08 definitely not deflate data');
    const res = await postWebhook(server.url, garbage, { headers: { 'content-encoding': 'gzip' } });
    // Signed over the bytes as sent, so it verifies; it cannot parse, so processing will fail it visibly.
    expect(res).toMatchObject({ status: 200, body: { accepted: true, summary: { topic: 'invalid_json' } } });
    const stored = await row(res.body.webhookEventId);
    expect(stored.rawBody!.equals(garbage)).toBe(true);
    expect(stored.summary).toMatchObject({ bodyEncodingError: 'corrupt_encoding' });
  });

  it('an unknown Content-Encoding or an odd charset is stored as received and answered 200, never 415', async () => {
    const odd: Record<string, string>[] = [
      { 'content-encoding': 'x-foo' },
      { 'content-type': 'application/json; charset=utf-7' },
      { 'content-type': 'text/plain' },
    ];
    for (const headers of odd) {
      const res = await postWebhook(server.url, fixture('status-read.json'), { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect((await row(res.body.webhookEventId)).rawBody!.equals(fixture('status-read.json'))).toBe(true);
    }
  });
});
