import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from './index';
import { control as controlAt, postMany, webhookFixture, webhookReceiver } from './testing';

const TOKEN = 'sim-token-send';
const SECRET = 'whsec-send';
const WABA = '102290129340398';
const PHONE = '106540352242922';
const T0 = Date.parse('2026-05-04T09:00:00.000Z');

/** Send-path rules with an injected clock: nothing here sleeps, time moves only when a test moves it. */
describe('simulator message sends', () => {
  let sim: RunningSimulator;
  let rx: Awaited<ReturnType<typeof webhookReceiver>>;
  let now = T0;

  beforeAll(async () => {
    rx = await webhookReceiver(SECRET);
    sim = await startSimulator({
      accessToken: TOKEN,
      wabaId: WABA,
      phoneNumberId: PHONE,
      url: rx.url,
      signingSecret: SECRET,
      now: () => new Date(now),
      pairSpacingMs: 200,
      throughputPerSecond: 1000,
      statusWebhooks: false,
    });
  });
  afterAll(async () => {
    await sim?.close();
    await rx?.close();
  });
  beforeEach(() => {
    sim.reset();
    rx.got.splice(0);
    now = T0;
  });

  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${sim.url}/v23.0/${PHONE}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', ...body }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const control = (path: string, body: unknown) => controlAt(sim.url, path, body);
  const text = (to: string, extra: Record<string, unknown> = {}) => ({ to, type: 'text', text: { body: 'hello' }, ...extra });
  const seedGreeting = () =>
    sim.seedApprovedTemplate({
      name: 'greeting',
      language: 'en_US',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
        { type: 'BODY', text: 'Hi {{1}}, your order {{2}} ships on {{3}}. Reply STOP to opt out.' },
      ],
    });
  const greeting = (to: string, bodyParams = 3, headerParams = 1) => ({
    to,
    type: 'template',
    template: {
      name: 'greeting',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: Array.from({ length: headerParams }, () => ({ type: 'text', text: '#1' })) },
        { type: 'body', parameters: Array.from({ length: bodyParams }, (_, i) => ({ type: 'text', text: `v${i}` })) },
      ],
    },
  });

  it('refuses malformed sends with code 100, naming the parameter, and accepts nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ messaging_product: undefined, to: '1', type: 'text', text: { body: 'x' } }, 'messaging_product'],
      [{ type: 'text', text: { body: 'x' } }, 'to'],
      [{ to: '393331234567', type: 'sticker', sticker: { id: '1' } }, 'Param type must be one of'],
      [{ to: '393331234567', type: 'text', text: {} }, "text['body']"],
      [{ to: '393331234567', type: 'image', image: { caption: 'no media' } }, 'either id or link'],
      [{ to: '393331234567', type: 'template', template: { name: 'x' } }, "template['language']['code']"],
      [{ to: '393331234567', type: 'interactive', interactive: { type: 'button' } }, "interactive['action']"],
    ];
    for (const [body, names] of cases) {
      const res = await post(body);
      expect(res.status, names).toBe(400);
      expect(res.json.error.code, names).toBe(100);
      expect(JSON.stringify(res.json.error), names).toContain(names);
    }
    expect(sim.stats().accepted).toBe(0);
    expect(sim.stats().rejectionsByCode).toEqual({ 100: cases.length });
  });

  it('accepts every message type inside the window, answering like the provider', async () => {
    await control('inbound', { from: '+39 333 123 4567' });
    seedGreeting();
    const sends = [
      text('+39 333 123 4567'),
      { to: '393331234567', type: 'image', image: { link: 'https://example.com/a.jpg' } },
      { to: '393331234567', type: 'document', document: { id: '1003383421387256', filename: 'a.pdf' } },
      { to: '393331234567', type: 'audio', audio: { id: '42' } },
      { to: '393331234567', type: 'video', video: { link: 'https://example.com/a.mp4' } },
      { to: '393331234567', type: 'interactive', interactive: { type: 'button', body: { text: 'Ok?' }, action: { buttons: [] } } },
      greeting('393331234567'),
    ];
    const ids: string[] = [];
    for (const body of sends) {
      now += 200; // one pair-spacing apart
      const res = await post(body);
      expect(res.status, String(body.type)).toBe(200);
      expect(res.json).toEqual({
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: '393331234567' }],
        messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]+$/), ...(body.type === 'template' ? { message_status: 'accepted' } : {}) }],
      });
      ids.push(res.json.messages[0].id);
    }
    expect(new Set(ids).size).toBe(sends.length);
    expect(sim.messages().map((m) => [m.id, m.type, m.category])).toEqual(
      ids.map((id, i) => [id, sends[i]!.type, sends[i]!.type === 'template' ? 'utility' : 'service']),
    );
  });

  it('131047 outside the 24 h window; /_sim/inbound opens it (and can deliver the signed inbound webhook); it closes after 24 h', async () => {
    const outside = await post(text('447700900123'));
    expect(outside).toMatchObject({
      status: 400,
      json: {
        error: {
          code: 131047,
          message: '(#131047) Re-engagement message',
          error_data: { details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
        },
      },
    });
    const inbound = await control('inbound', { from: '+44 7700 900123', text: 'Is my order ready?', name: 'Ada', deliver: true });
    expect(inbound).toMatchObject({ status: 200, json: { from: '447700900123', at: new Date(T0).toISOString(), webhook: { status: 200 } } });
    expect(rx.got).toHaveLength(1);
    const hook = rx.got[0]!;
    expect(hook.verified).toBe(true);
    expect(hook.headers['x-provider-delivery-id']).toBe(inbound.json.webhook.deliveryId);
    const shape = webhookFixture('inbound-text.json');
    expect(hook.body.object).toBe(shape.object);
    const value = hook.body.entry[0]!.changes[0]!.value as any;
    expect(Object.keys(value).sort()).toEqual(Object.keys(shape.entry[0].changes[0].value).sort());
    expect(Object.keys(value.messages[0]).sort()).toEqual(Object.keys(shape.entry[0].changes[0].value.messages[0]).sort());
    expect(value).toMatchObject({
      metadata: { phone_number_id: PHONE },
      contacts: [{ profile: { name: 'Ada' }, wa_id: '447700900123' }],
      messages: [{ from: '447700900123', timestamp: String(T0 / 1000), type: 'text', text: { body: 'Is my order ready?' } }],
    });

    expect((await post(text('447700900123'))).status).toBe(200);
    now = T0 + 24 * 3600_000 - 1;
    expect((await post(text('447700900123'))).status).toBe(200);
    now = T0 + 24 * 3600_000;
    expect((await post(text('447700900123'))).json.error.code).toBe(131047);
    // Templates need no window.
    seedGreeting();
    now += 200;
    expect((await post(greeting('447700900123'))).status).toBe(200);
    // The windows route opens at a given time and closes with null.
    expect(await control('windows', { from: '447700900123', openedAt: new Date(now - 1000).toISOString() })).toMatchObject({ status: 200 });
    now += 200;
    expect((await post(text('447700900123'))).status).toBe(200);
    await control('windows', { from: '+447700900123', openedAt: null });
    now += 200;
    expect((await post(text('447700900123'))).json.error.code).toBe(131047);
    expect(sim.stats().rejectionsByCode).toEqual({ 131047: 3 });
  });

  it('130429 past the per-second limit of the phone number, counted per calendar second; 1000/s when upgraded', async () => {
    seedGreeting();
    expect(await control('throughput', { phoneNumberId: PHONE, perSecond: 5 })).toMatchObject({ status: 200, json: { perSecond: 5 } });
    now = T0 + 400; // the second T0..T0+999
    const first = await Promise.all(Array.from({ length: 7 }, (_, i) => post(greeting(`3933300000${i}`))));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 400, 400]);
    expect(first.find((r) => r.status === 400)!.json.error).toMatchObject({
      code: 130429,
      message: '(#130429) Rate limit hit',
      error_data: { details: 'Cloud API message throughput has been reached.' },
    });
    now = T0 + 999;
    expect((await post(greeting('393339999999'))).json.error.code).toBe(130429);
    now = T0 + 1000; // a new calendar second
    expect((await post(greeting('393339999999'))).status).toBe(200);
    const s = sim.stats(PHONE);
    expect(s).toMatchObject({ accepted: 6, maxPerSecond: 5, secondsOverLimit: 0, rejectionsByCode: { 130429: 3 } });
    expect(s.phoneNumbers[PHONE]!.perSecond).toEqual([
      { second: T0 / 1000, accepted: 5, rejected: 3 },
      { second: T0 / 1000 + 1, accepted: 1, rejected: 0 },
    ]);

    sim.reset();
    seedGreeting();
    sim.setThroughput(PHONE, 1000);
    const results = (
      await postMany(
        `${sim.url}/v23.0/${PHONE}/messages`,
        TOKEN,
        Array.from({ length: 1000 }, (_, i) => ({ messaging_product: 'whatsapp', ...greeting(`44770${String(i).padStart(6, '0')}`) })),
      )
    ).map((r) => r.status);
    expect(results.filter((s) => s === 200)).toHaveLength(1000);
    expect((await post(greeting('447709999999'))).json.error.code).toBe(130429);
    expect(sim.stats()).toMatchObject({ accepted: 1000, maxPerSecond: 1000, secondsOverLimit: 0, rejectionsByCode: { 130429: 1 } });
  });

  it('131056 when the same recipient is messaged again within pairSpacingMs', async () => {
    seedGreeting();
    expect((await post(greeting('393331111111'))).status).toBe(200);
    const again = await post(greeting('+39 333 111 1111'));
    expect(again).toMatchObject({
      status: 400,
      json: { error: { code: 131056, message: '(#131056) (Business Account, Consumer Account) pair rate limit hit' } },
    });
    expect(again.json.error.error_data.details).toMatch(/too many messages sent from this phone number to the same phone number/);
    expect((await post(greeting('393332222222'))).status).toBe(200);
    now += 199;
    expect((await post(greeting('393331111111'))).json.error.code).toBe(131056);
    now += 1;
    expect((await post(greeting('393331111111'))).status).toBe(200);
    expect(sim.stats()).toMatchObject({ accepted: 3, pairViolations: 0, rejectionsByCode: { 131056: 2 } });
  });

  it('template errors: 132001 unknown or wrong language or not approved, 132000 parameter counts, 132012 media header, 132015 paused, 132016 disabled', async () => {
    seedGreeting();
    const to = () => `3933${String(++n).padStart(8, '0')}`;
    let n = 0;
    const code = async (body: Record<string, unknown>) => (await post(body)).json.error?.code;
    const named = (name: string, lang = 'en_US', components: unknown[] = []) => ({
      to: to(),
      type: 'template',
      template: { name, language: { code: lang }, components },
    });

    const unknown = await post(named('no_such_template'));
    expect(unknown).toMatchObject({ status: 404, json: { error: { code: 132001, message: '(#132001) Template name does not exist in the translation' } } });
    expect(await code({ ...greeting(to()), template: { ...greeting('x').template, language: { code: 'it' } } })).toBe(132001);
    sim.seedApprovedTemplate({ name: 'pending_one', language: 'en_US', components: [{ type: 'BODY', text: 'Hello there, this is fine.' }] });
    sim.store.templates.forEach((t) => t.name === 'pending_one' && (t.status = 'PENDING'));
    expect(await code(named('pending_one'))).toBe(132001);

    const mismatch = await post(greeting(to(), 2));
    expect(mismatch.json.error).toMatchObject({
      code: 132000,
      message: '(#132000) Number of parameters does not match the expected number of params',
      error_data: { details: 'body: number of localizable_params (2) does not match the expected number of params (3)' },
    });
    expect((await post(greeting(to(), 3, 0))).json.error.error_data.details).toBe(
      'header: number of localizable_params (0) does not match the expected number of params (1)',
    );
    expect((await post(greeting(to(), 3, 1))).status).toBe(200);

    sim.seedApprovedTemplate({
      name: 'photo',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Look at this new arrival in our shop today.' },
      ],
    });
    const wrongKind = await post(named('photo', 'en_US', [{ type: 'header', parameters: [{ type: 'video', video: { link: 'https://e.x/v.mp4' } }] }]));
    expect(wrongKind.json.error).toMatchObject({ code: 132012, error_data: { details: 'header: Format mismatch, expected IMAGE, received VIDEO' } });
    expect(await code(named('photo'))).toBe(132012);
    expect((await post(named('photo', 'en_US', [{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://e.x/a.jpg' } }] }]))).status).toBe(200);

    sim.seedApprovedTemplate({ name: 'paused_one', language: 'en_US', status: 'PAUSED', components: [{ type: 'BODY', text: 'Hello there, this is fine.' }] });
    expect((await post(named('paused_one'))).json.error).toMatchObject({ code: 132015, message: '(#132015) Template is Paused' });
    const disabled = await control('templates/approved', {
      name: 'disabled_one',
      language: 'en_US',
      status: 'DISABLED',
      components: [{ type: 'body', text: 'Hello there, this is fine.' }],
    });
    expect(disabled).toMatchObject({ status: 200, json: { template: { status: 'DISABLED', components: [{ type: 'BODY' }] } } });
    expect(await code(named('disabled_one'))).toBe(132016);
    expect(sim.stats().rejectionsByCode).toEqual({ 132001: 3, 132000: 2, 132012: 2, 132015: 1, 132016: 1 });
  });

  it('counts duplicates by biz_opaque_callback_data, exposes stats over HTTP, and reset clears messages, counters and windows but not templates', async () => {
    seedGreeting();
    await sim.inbound({ from: '393330000001' });
    for (const [to, cb] of [
      ['393330000001', 'msg-1'],
      ['393330000002', 'msg-2'],
      ['393330000003', 'msg-1'],
    ] as const)
      expect((await post({ ...greeting(to), biz_opaque_callback_data: cb })).status).toBe(200);
    expect((await post({ ...greeting('393330000004'), biz_opaque_callback_data: 42 })).json.error.code).toBe(100);
    const stats = (await (await fetch(`${sim.url}/_sim/stats?phoneNumberId=${PHONE}`)).json()) as Record<string, any>;
    expect(stats).toMatchObject({
      accepted: 3,
      duplicates: 1,
      rejectionsByCode: { 100: 1 },
      firstAcceptedAt: new Date(T0).toISOString(),
      lastAcceptedAt: new Date(T0).toISOString(),
      phoneNumbers: { [PHONE]: { throughputPerSecond: 1000, duplicates: 1 } },
    });
    const byCallback = (await (await fetch(`${sim.url}/_sim/messages?callbackData=msg-1`)).json()) as { messages: { waId: string }[] };
    expect(byCallback.messages.map((m) => m.waId)).toEqual(['393330000001', '393330000003']);
    const byTo = (await (await fetch(`${sim.url}/_sim/messages?to=%2B393330000002&limit=5`)).json()) as { messages: { callbackData: string }[] };
    expect(byTo.messages.map((m) => m.callbackData)).toEqual(['msg-2']);

    expect(await control('reset', {})).toMatchObject({ status: 200 });
    expect(sim.stats()).toMatchObject({ accepted: 0, duplicates: 0, rejectionsByCode: {}, phoneNumbers: {} });
    expect(sim.messages()).toEqual([]);
    expect((await post(text('393330000001'))).json.error.code).toBe(131047);
    expect((await post(greeting('393330000009'))).status).toBe(200);
    await control('reset', { templates: true });
    expect((await post(greeting('393330000010'))).json.error.code).toBe(132001);
  });
});
