import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { startSimulator, type RunningSimulator } from '@mos/provider/simulator';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { sendToProvider, type AppDeps } from '@mos/app';
import { canonical, DOC, providerComponentExamples, providerCreationExamples, type CreationBody } from '@mos/core/testing';
import { createControlPlaneApp } from './app';

const TOKEN = 'sim-fidelity-token';
const TOP_LEVEL = new Set(['name', 'language', 'category', 'parameter_format', 'components', 'message_send_ttl_seconds']);

/** A provider creation body as our API takes it (camelCase top level, components as they are). */
function apiBody(b: CreationBody): Record<string, unknown> {
  const unknown = Object.keys(b).filter((k) => !TOP_LEVEL.has(k));
  if (unknown.length) throw new Error(`example has top-level fields this test does not map: ${unknown.join(', ')}`);
  return {
    name: b.name,
    language: b.language,
    category: b.category,
    components: b.components,
    ...(b.parameter_format === undefined ? {} : { parameterFormat: b.parameter_format }),
    ...(b.message_send_ttl_seconds === undefined ? {} : { messageSendTtlSeconds: b.message_send_ttl_seconds }),
  };
}

/**
 * The whole create path with the provider's own published bodies: POST /api/templates ->
 * stored draft -> submit -> provider client -> simulator. What the simulator received must
 * be the published body, every field kept (enum spellings aside; parameter_format is sent
 * explicitly, POSITIONAL when the example leaves it to the provider's default).
 */
describe('the create path sends every documented field', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let cp: Awaited<ReturnType<typeof listen>>;
  let deps: AppDeps;
  let wabaSeq = 7_000_000;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    sim = await startSimulator({ accessToken: TOKEN });
    deps = testDeps(tdb.db, { env: { PROVIDER_BASE_URL: sim.url } });
    cp = await listen(createControlPlaneApp(deps));
  });
  afterAll(async () => {
    await cp?.close();
    await sim?.close();
    await tdb?.drop();
  });

  /** A workspace on its own business account: several examples share a name and language. */
  async function workspace(): Promise<SeededOperator & { wabaId: string }> {
    const wabaId = String(++wabaSeq);
    const op = await seedOperator(deps, { role: 'owner', wabaId });
    await deps.vault.set(tdb.db, op.workspaceId, 'provider-access-token', TOKEN);
    return { ...op, wabaId };
  }
  const call = (op: SeededOperator, method: string, path: string, body?: unknown) =>
    jsonRequest(`${cp.url}${path}`, { method, headers: bearer(op.token), body });

  it.each([...providerCreationExamples(), ...providerComponentExamples()].map((e) => [e.id, e] as const))('%s', async (_id, example) => {
    const op = await workspace();
    const created = await call(op, 'POST', '/api/templates', apiBody(example.body));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(canonical(created.body.template.components), example.source).toEqual(canonical(example.body.components));
    expect(created.body.template.messageSendTtlSeconds).toBe(example.body.message_send_ttl_seconds ?? null);

    const submitted = await call(op, 'POST', `/api/templates/${created.body.template.id}/submit`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const received = sim.store.templateRequests.filter((r) => r.target === op.wabaId);
    expect(received).toHaveLength(1);
    const expected = { parameter_format: 'POSITIONAL', ...example.body };
    expect(canonical(received[0]!.body), example.source).toEqual(canonical(expected));
  });

  it(`an edit in place (a revised, rejected template) also carries message_send_ttl_seconds (${DOC.ttl})`, async () => {
    const op = await workspace();
    const zeroTap = providerCreationExamples().find((e) => e.id === 'authentication_zero_tap.json')!.body;
    const created = (await call(op, 'POST', '/api/templates', apiBody(zeroTap))).body.template;
    const providerTemplateId = (await call(op, 'POST', `/api/templates/${created.id}/submit`)).body.template.providerTemplateId as string;
    await sim.review(providerTemplateId, 'REJECTED');
    const account = { wabaId: op.wabaId, accessToken: TOKEN };
    const row = { ...created, components: zeroTap.components, messageSendTtlSeconds: 120, providerTemplateId };
    expect(await sendToProvider(deps, account, row)).toBe(providerTemplateId);
    const edit = sim.store.templateRequests.at(-1)!;
    expect(edit).toMatchObject({
      kind: 'edit',
      target: providerTemplateId,
      body: { category: 'AUTHENTICATION', parameter_format: 'POSITIONAL', message_send_ttl_seconds: 120 },
    });
    expect(canonical((edit.body as { components: unknown }).components)).toEqual(canonical(zeroTap.components));
    expect(Object.keys(edit.body as object)).not.toContain('name');

    // Back to draft, the TTL can change but not be cleared: the provider would keep its value.
    // (No webhook target in this suite: mark the rejection as the status webhook would.)
    await tdb.pool.query(`UPDATE templates SET status = 'rejected' WHERE id = $1`, [created.id]);
    expect((await call(op, 'POST', `/api/templates/${created.id}/revise`)).status).toBe(200);
    expect(await call(op, 'PUT', `/api/templates/${created.id}`, { messageSendTtlSeconds: null })).toMatchObject({
      status: 400,
      body: { error: 'update_failed', message: expect.stringContaining('messageSendTtlSeconds') },
    });
    expect((await call(op, 'PUT', `/api/templates/${created.id}`, { messageSendTtlSeconds: 300 })).body.template.messageSendTtlSeconds).toBe(300);
  });
});

describe('fields we do not model are refused by name, never dropped', () => {
  let tdb: TestDatabase;
  let sim: RunningSimulator;
  let cp: Awaited<ReturnType<typeof listen>>;
  let op: SeededOperator;
  const call = (method: string, path: string, body?: unknown) => jsonRequest(`${cp.url}${path}`, { method, headers: bearer(op.token), body });
  const body = { type: 'BODY', text: 'Your order has shipped.' };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    sim = await startSimulator({ accessToken: TOKEN });
    const deps = testDeps(tdb.db, { env: { PROVIDER_BASE_URL: sim.url } });
    cp = await listen(createControlPlaneApp(deps));
    op = await seedOperator(deps, { role: 'owner', wabaId: '7100001' });
    await deps.vault.set(tdb.db, op.workspaceId, 'provider-access-token', TOKEN);
  });
  afterAll(async () => {
    await cp?.close();
    await sim?.close();
    await tdb?.drop();
  });

  it.each([
    ['a component field', { name: 'x', components: [{ ...body, colour: 'red' }] }, 'components.0', 'colour'],
    [
      'a button field',
      { name: 'x', components: [body, { type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Go', flow_id: '1', icon: 'DOCUMENT' }] }] },
      'components.1.buttons.0',
      'icon',
    ],
    ['a top-level field', { name: 'x', allow_category_change: true }, 'body', 'allow_category_change'],
    ["the provider's snake_case TTL (ours is messageSendTtlSeconds)", { name: 'x', message_send_ttl_seconds: 60 }, 'body', 'message_send_ttl_seconds'],
  ])('create: %s is 400 create_failed naming it', async (_what, input, path, key) => {
    const res = await call('POST', '/api/templates', input);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'create_failed', issues: [expect.objectContaining({ code: 'unrecognized_keys', keys: [key] })] });
    expect(res.body.message).toContain(`${path}: `);
    expect(res.body.message).toContain(key);
  });

  it('update: an unknown field is 400 update_failed naming it', async () => {
    const t = (await call('POST', '/api/templates', { name: 'update_me', components: [body] })).body.template;
    const res = await call('PUT', `/api/templates/${t.id}`, { components: [{ ...body, colour: 'red' }] });
    expect(res).toMatchObject({ status: 400, body: { error: 'update_failed', issues: [expect.objectContaining({ keys: ['colour'] })] } });
    expect((await call('GET', `/api/templates/${t.id}`)).body.template.components).toEqual([body]);
  });

  it('validate: an unknown field is 400 invalid_request naming it; misplaced and out-of-range fields are validator issues', async () => {
    const unknown = await call('POST', '/api/templates/validate', { name: 'x', components: [{ ...body, colour: 'red' }] });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', issues: [expect.objectContaining({ path: ['components', 0], keys: ['colour'] })] },
    });
    const misplaced = await call('POST', '/api/templates/validate', {
      name: 'x',
      category: 'marketing',
      messageSendTtlSeconds: 60,
      components: [body, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop', url: 'https://example.com/x' }] }],
    });
    expect(misplaced.status).toBe(200);
    expect(misplaced.body.issues.map((i: { code: string; path: unknown[] }) => [i.code, i.path.join('.')])).toEqual([
      ['ttl_invalid', 'messageSendTtlSeconds'],
      ['field_unknown', 'components.1.buttons.0.url'],
    ]);
  });

  it(`submit: a zero-tap draft without zero_tap_terms_accepted fails validation, no provider call (${DOC.zeroTap})`, async () => {
    const zeroTap = providerCreationExamples().find((e) => e.id === 'authentication_zero_tap.json')!.body;
    const components = structuredClone(zeroTap.components) as { buttons?: Record<string, unknown>[] }[];
    delete components[2]!.buttons![0]!.zero_tap_terms_accepted;
    const t = (await call('POST', '/api/templates', { ...apiBody({ ...zeroTap, components }), name: 'zero_tap_no_terms' })).body.template;
    const before = sim.store.templateRequests.length;
    const res = await call('POST', `/api/templates/${t.id}/submit`);
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: 'validation_failed',
        issues: [expect.objectContaining({ code: 'auth_invalid', path: ['components', 2, 'buttons', 0, 'zero_tap_terms_accepted'] })],
      },
    });
    expect(sim.store.templateRequests.length).toBe(before);
  });
});
