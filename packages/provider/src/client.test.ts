import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient, isProviderError, type ProviderError } from './index';
import { startSimulator, type RunningSimulator } from './simulator/index';

const TOKEN = 'sim-token-client';
const WABA = '102290129340398';
const PHONE = '106540352242922';
const auth = { wabaId: WABA, accessToken: TOKEN };

const body = (text: string, ...examples: string[]) => ({ type: 'BODY', text, ...(examples.length ? { example: { body_text: [examples] } } : {}) });
const template = (name: string, language = 'en_US') => ({
  name,
  language,
  category: 'UTILITY',
  parameter_format: 'POSITIONAL' as const,
  components: [body('Hello {{1}}, your order {{2}} has shipped and will arrive in two days.', 'Ada', '#1042')],
});

async function rejectionOf(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    expect(isProviderError(err)).toBe(true);
    return err as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

describe('provider client against the simulator', () => {
  let sim: RunningSimulator;
  let client: ReturnType<typeof createProviderClient>;

  beforeAll(async () => {
    sim = await startSimulator({ accessToken: TOKEN, wabaId: WABA, phoneNumberId: PHONE });
    client = createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0' });
  });
  afterAll(() => sim?.close());

  it('creates a template: PENDING with a numeric provider id', async () => {
    const res = await client.createTemplate(auth, template('order_shipped'));
    expect(res).toMatchObject({ status: 'PENDING', category: 'UTILITY' });
    expect(res.id).toMatch(/^\d{16}$/);
    expect(sim.templates().find((t) => t.id === res.id)).toMatchObject({ name: 'order_shipped', language: 'en_US', status: 'PENDING' });
  });

  it('rejects a duplicate (name, language) with subcode 2388024, not retryable, raw error kept', async () => {
    await client.createTemplate(auth, template('dup_check', 'it'));
    const err = await rejectionOf(client.createTemplate(auth, template('dup_check', 'it')));
    expect(err).toMatchObject({ status: 400, retryable: false });
    expect(err.error).toMatchObject({
      code: 100,
      error_subcode: 2388024,
      type: 'OAuthException',
      error_user_msg: expect.any(String),
      fbtrace_id: expect.any(String),
    });
    // Another language of the same name is a different template.
    await expect(client.createTemplate(auth, template('dup_check', 'en_US'))).resolves.toMatchObject({ status: 'PENDING' });
  });

  it('rejects a template that breaks the provider rules with the validator messages', async () => {
    const bad = { ...template('bad_one'), components: [body('{{1}} is your balance.', '10')] };
    const err = await rejectionOf(client.createTemplate(auth, bad));
    expect(err).toMatchObject({ status: 400, retryable: false });
    expect(err.error).toMatchObject({ code: 100, message: 'Invalid parameter', error_data: { messaging_product: 'whatsapp', details: expect.any(String) } });
    expect(err.userMessage).toBe(err.error!.error_user_msg);
  });

  it('answers a missing parameter like the Graph API', async () => {
    const err = await rejectionOf(client.createTemplate(auth, { language: 'en_US', category: 'UTILITY', components: [] } as never));
    expect(err.error).toMatchObject({ code: 100, message: '(#100) The parameter name is required' });
  });

  it('a wrong token is a 401 OAuthException code 190, not retryable', async () => {
    const err = await rejectionOf(client.createTemplate({ ...auth, accessToken: 'nope' }, template('x_token')));
    expect(err).toMatchObject({ status: 401, retryable: false, error: { code: 190, type: 'OAuthException' } });
  });

  it('an unknown business account is code 100 subcode 33', async () => {
    const err = await rejectionOf(client.listTemplates({ ...auth, wabaId: '999' }));
    expect(err).toMatchObject({ status: 400, retryable: false, error: { code: 100, error_subcode: 33 } });
  });

  it('pages through templates with cursors; listAllTemplates follows them to the end', async () => {
    for (let i = 0; i < 7; i++) await client.createTemplate(auth, template(`paged_${i}`));
    const total = sim.templates().length;
    const first = await client.listTemplates(auth, { limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.paging?.next).toContain('after=');
    const second = await client.listTemplates(auth, { limit: 3, after: first.paging!.cursors!.after });
    expect(second.data.map((t) => t.id)).not.toContain(first.data[0]!.id);
    const all = await client.listAllTemplates(auth, 4);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((t) => t.id)).size).toBe(total);
    expect(all[0]).toMatchObject({
      name: expect.any(String),
      language: expect.any(String),
      status: 'PENDING',
      category: 'UTILITY',
      components: expect.any(Array),
    });
  });

  it('sends a text message and returns a wamid', async () => {
    // Free-form text needs the customer's 24 h window, opened by their inbound message.
    sim.openWindow('+393331234567');
    const res = await client.sendMessage({ phoneNumberId: PHONE, accessToken: TOKEN }, { to: '+393331234567', type: 'text', text: { body: 'hi' } });
    expect(res).toMatchObject({ messaging_product: 'whatsapp', contacts: [{ input: '+393331234567', wa_id: '393331234567' }] });
    expect(res.messages[0]!.id).toMatch(/^wamid\./);
  });

  it('a template send needs an APPROVED template in that language (132001 otherwise)', async () => {
    const { id } = await client.createTemplate(auth, template('send_me'));
    const send = () =>
      client.sendMessage(
        { phoneNumberId: PHONE, accessToken: TOKEN },
        {
          to: '393337654321',
          type: 'template',
          template: {
            name: 'send_me',
            language: { code: 'en_US' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'Ada' },
                  { type: 'text', text: '#1042' },
                ],
              },
            ],
          },
        },
      );
    expect((await rejectionOf(send())).error).toMatchObject({ code: 132001 });
    await sim.review(id, 'APPROVED');
    await expect(send()).resolves.toMatchObject({ messages: [{ id: expect.stringMatching(/^wamid\./) }] });
  });

  it('edits a rejected template back into review under the same id; PENDING and unknown ids cannot be edited', async () => {
    const { id } = await client.createTemplate(auth, template('edit_me'));
    const pending = await rejectionOf(client.editTemplate(auth, id, { components: template('x').components }));
    expect(pending).toMatchObject({ status: 400, retryable: false, error: { code: 100, error_user_msg: expect.stringMatching(/only be edited/) } });
    await sim.review(id, 'REJECTED', 'INVALID_FORMAT');
    const bad = await rejectionOf(client.editTemplate(auth, id, { components: [body('{{1}} only.', 'x')] }));
    expect(bad).toMatchObject({ status: 400, error: { code: 100, error_data: { details: expect.any(String) } } });
    expect(sim.templates().find((t) => t.id === id)?.status).toBe('REJECTED');
    const fixed = [body('Hello {{1}}, your parcel {{2}} is on its way and should arrive this week.', 'Ada', '#7')];
    await expect(client.editTemplate(auth, id, { category: 'utility', components: fixed })).resolves.toEqual({ success: true });
    expect(sim.templates().find((t) => t.id === id)).toMatchObject({ status: 'PENDING', category: 'UTILITY', components: fixed });
    expect(sim.templates().find((t) => t.id === id)?.rejected_reason).toBeUndefined();
    const unknown = await rejectionOf(client.editTemplate(auth, '1234', { components: fixed }));
    expect(unknown).toMatchObject({ status: 400, error: { code: 100, error_subcode: 33 } });
  });

  it('5xx and 429 are retryable', async () => {
    sim.failNext(503);
    expect(await rejectionOf(client.listTemplates(auth))).toMatchObject({ status: 503, retryable: true, error: { is_transient: true } });
    sim.failNext(429);
    expect(await rejectionOf(client.listTemplates(auth))).toMatchObject({ status: 429, retryable: true });
    await expect(client.listTemplates(auth)).resolves.toBeDefined();
  });
});

describe('provider client transport failures', () => {
  let hang: Server;
  let url: string;
  beforeAll(async () => {
    hang = createServer(() => undefined); // accepts and never answers
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        hang.closeAllConnections();
        hang.close(() => r());
      }),
  );

  it('a timeout is retryable with no status', async () => {
    const client = createProviderClient({ baseUrl: url, apiVersion: 'v23.0', timeoutMs: 200 });
    const err = await rejectionOf(client.listTemplates(auth));
    expect(err).toMatchObject({ status: null, retryable: true });
    expect(err.message).toMatch(/timed out/);
  });

  it('an unreachable provider is retryable', async () => {
    const client = createProviderClient({ baseUrl: 'http://127.0.0.1:1', apiVersion: 'v23.0', timeoutMs: 2000 });
    expect(await rejectionOf(client.listTemplates(auth))).toMatchObject({ status: null, retryable: true });
  });

  it('an unreadable 2xx is a retryable error, not a crash', async () => {
    const weird = createServer((_req, res) => res.end('{"not":"a page"}'));
    await new Promise<void>((r) => weird.listen(0, '127.0.0.1', () => r()));
    const client = createProviderClient({ baseUrl: `http://127.0.0.1:${(weird.address() as AddressInfo).port}`, apiVersion: 'v23.0' });
    expect(await rejectionOf(client.listTemplates(auth))).toMatchObject({ status: 200, retryable: true });
    await new Promise<void>((r) => weird.close(() => r()));
  });
});
