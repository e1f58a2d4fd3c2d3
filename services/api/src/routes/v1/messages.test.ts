import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../../app';
import { seedApiKey, v1, type SeededKey } from './testing';

/**
 * Refusals that happen before the send and broadcast service functions run: the request
 * shape, the Idempotency-Key header and ids that cannot exist. (What those functions decide
 * is tested with them.)
 */
describe('/v1 messages and broadcasts: refusals before the app', () => {
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

  const TO = '+393331234567';
  const CONTACT = 'ctr_01m83m3nxvswhhnya0g9mskfax';
  const send = (body: unknown, headers: Record<string, string> = {}) => v1(api.url, k.key, '/messages', { method: 'POST', body, headers });
  const invalid = (issues: unknown[] = [expect.objectContaining({ path: expect.any(Array), message: expect.any(String) })]) => ({
    status: 400,
    body: { error: 'validation_failed', issues: expect.arrayContaining(issues) },
  });

  it('POST /v1/messages: 400 validation_failed with issues for a body that does not validate', async () => {
    const cases: [string, unknown, unknown[]?][] = [
      ['no body', undefined],
      ['array', []],
      ['wrong type of text', { to: TO, type: 'text', text: { body: 5 } }, [expect.objectContaining({ path: ['text', 'body'], code: 'invalid_type' })]],
      ['number as to', { to: 393331234567, type: 'text', text: { body: 'hi' } }, [expect.objectContaining({ path: ['to'] })]],
      ['unknown type', { to: TO, type: 'sticker', sticker: {} }, [expect.objectContaining({ path: ['type'] })]],
      ['payload of another type', { to: TO, type: 'text', image: { link: 'https://x.test/a.png' } }],
      ['both to and contactId', { to: TO, contactId: CONTACT, type: 'text', text: { body: 'hi' } }, [expect.objectContaining({ path: ['to'] })]],
      ['neither to nor contactId', { type: 'text', text: { body: 'hi' } }, [expect.objectContaining({ path: ['to'] })]],
      ['E.164 without +', { to: '393331234567', type: 'text', text: { body: 'hi' } }, [expect.objectContaining({ path: ['to'] })]],
      ['E.164 with a leading 0', { to: '+0393331234', type: 'text', text: { body: 'hi' } }],
      ['E.164 with spaces', { to: '+39 333 123 4567', type: 'text', text: { body: 'hi' } }],
      ['E.164 too long', { to: '+1234567890123456', type: 'text', text: { body: 'hi' } }],
      ['bad contact id', { contactId: 'ctr_nope', type: 'text', text: { body: 'hi' } }, [expect.objectContaining({ path: ['contactId'] })]],
      ['unknown key', { to: TO, type: 'text', text: { body: 'hi' }, priority: 'high' }, [expect.objectContaining({ code: 'unrecognized_keys' })]],
      ['unknown nested key', { to: TO, type: 'text', text: { body: 'hi', preview_url: true } }, [expect.objectContaining({ code: 'unrecognized_keys' })]],
      ['NUL in text', { to: TO, type: 'text', text: { body: 'hi\u0000there' } }, [expect.objectContaining({ path: ['text', 'body'] })]],
      ['empty text', { to: TO, type: 'text', text: { body: '' } }],
      ['media without http(s)', { to: TO, type: 'image', image: { link: 'file:///etc/passwd' } }],
      ['template with a bad name', { to: TO, type: 'template', template: { name: 'Order Shipped', language: 'en_US' } }],
    ];
    for (const [what, body, issues] of cases) expect(await send(body), what).toMatchObject(invalid(issues));
  });

  it('POST /v1/messages: a bad Idempotency-Key is 400 validation_failed naming the header', async () => {
    const body = { to: TO, type: 'text', text: { body: 'hi' } };
    for (const key of ['', 'has space', 'x'.repeat(256), 'caf\u00e9']) {
      expect(await send(body, { 'idempotency-key': key }), JSON.stringify(key)).toMatchObject(
        invalid([expect.objectContaining({ path: ['Idempotency-Key'] })]),
      );
    }
  });

  it('GET /v1/messages/:id: an id that is not msg_… is 404 message_not_found', async () => {
    for (const id of ['nope', 'brd_01m83m3nxvswhhnya0g9mskfax', 'msg_short', 'msg_01m83m3nxvswhhnya0g9mskfaxx', 'msg_%00', '%00']) {
      expect(await v1(api.url, k.key, `/messages/${id}`), id).toMatchObject({ status: 404, body: { error: 'message_not_found' } });
    }
  });

  it('broadcasts: 400 for a body that does not validate; 404 broadcast_not_found for ids that are not brd_…', async () => {
    const template = { name: 'autumn_sale', language: 'en_US' };
    const bad: unknown[] = [
      undefined,
      {},
      { template },
      { template, segment: { subscriberStatus: 'everyone' } },
      { template, segment: {}, scheduledAt: 'tomorrow' },
      { template, segment: { phoneNumbers: ['393331234567'] } },
      { template, segment: {}, extra: 1 },
      { template: { ...template, name: 'a\u0000' }, segment: {} },
    ];
    for (const body of bad) {
      expect(await v1(api.url, k.key, '/broadcasts', { method: 'POST', body }), JSON.stringify(body)).toMatchObject(invalid());
    }
    for (const id of ['nope', 'msg_01m83m3nxvswhhnya0g9mskfax', 'brd_x', '%00']) {
      expect(await v1(api.url, k.key, `/broadcasts/${id}`), id).toMatchObject({ status: 404, body: { error: 'broadcast_not_found' } });
      for (const action of ['pause', 'resume', 'cancel']) {
        expect(await v1(api.url, k.key, `/broadcasts/${id}/${action}`, { method: 'POST' }), `${id} ${action}`).toMatchObject({
          status: 404,
          body: { error: 'broadcast_not_found' },
        });
      }
    }
    // An action that does not exist is an unknown path.
    expect(await v1(api.url, k.key, '/broadcasts/brd_01m83m3nxvswhhnya0g9mskfax/restart', { method: 'POST' })).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });
});
