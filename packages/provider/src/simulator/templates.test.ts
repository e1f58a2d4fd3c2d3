import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '../client';
import { ProviderError } from '../errors';
import { DOC, providerComponentExamples, providerCreationExamples } from '@mos/core/testing';
import { startSimulator, type RunningSimulator } from './index';

const TOKEN = 'sim-token-templates';

/**
 * The template endpoints with the provider's own published creation bodies
 * (docs/provider-reference/templates; each test names its source page). The client must
 * deliver each body unchanged, and the simulator must keep what it received.
 */
describe('simulator template endpoints', () => {
  let sim: RunningSimulator;
  let client: ReturnType<typeof createProviderClient>;
  let waba = 500_000;
  // A business account per call: several published examples share a name and language.
  const auth = () => ({ wabaId: String(++waba), accessToken: TOKEN });

  beforeAll(async () => {
    sim = await startSimulator({ accessToken: TOKEN });
    client = createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0' });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const lastRequest = () => sim.store.templateRequests.at(-1)!;

  it.each([...providerCreationExamples(), ...providerComponentExamples()].map((e) => [e.id, e] as const))(
    'accepts %s and received it exactly as the client was given it',
    async (_id, example) => {
      const res = await client.createTemplate(auth(), example.body as never);
      expect(res.status, example.source).toBe('PENDING');
      expect(lastRequest()).toEqual({ kind: 'create', target: String(waba), body: example.body });
    },
  );

  it(`keeps message_send_ttl_seconds, and an edit changes it (${DOC.ttl})`, async () => {
    const zeroTap = providerCreationExamples().find((e) => e.id === 'authentication_zero_tap.json')!.body;
    const a = auth();
    const { id } = await client.createTemplate(a, zeroTap as never);
    expect(sim.templates().find((t) => t.id === id)).toMatchObject({ category: 'AUTHENTICATION', message_send_ttl_seconds: 60 });
    await sim.review(id, 'REJECTED');
    await client.editTemplate(a, id, { category: 'AUTHENTICATION', components: zeroTap.components, message_send_ttl_seconds: 300 });
    expect(lastRequest()).toEqual({
      kind: 'edit',
      target: id,
      body: { category: 'AUTHENTICATION', components: zeroTap.components, message_send_ttl_seconds: 300 },
    });
    expect((await client.listAllTemplates(a)).find((t) => t.id === id)).toMatchObject({ status: 'PENDING', message_send_ttl_seconds: 300 });
  });

  it("refuses a component field nobody documents, naming it, in the provider's error shape", async () => {
    const body = {
      name: 'unknown_field',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order has shipped.', colour: 'red' }],
    };
    const err = await client.createTemplate(auth(), body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).error).toMatchObject({ code: 100, error_data: { details: expect.stringContaining('colour') } });
    expect(lastRequest().body).toEqual(body);
  });

  it('refuses an unknown top-level parameter by name instead of dropping it', async () => {
    const body = {
      name: 'extra_param',
      language: 'en_US',
      category: 'UTILITY',
      allow_category_change: true,
      components: [{ type: 'BODY', text: 'Your order has shipped.' }],
    };
    const err = await client.createTemplate(auth(), body as never).catch((e: unknown) => e);
    expect((err as ProviderError).error).toMatchObject({ code: 100, error_data: { details: expect.stringContaining('allow_category_change') } });
  });

  it(`refuses a zero-tap template without zero_tap_terms_accepted (${DOC.zeroTap})`, async () => {
    const zeroTap = providerCreationExamples().find((e) => e.id === 'authentication_zero_tap.json')!.body;
    const components = structuredClone(zeroTap.components) as { buttons?: Record<string, unknown>[] }[];
    delete components[2]!.buttons![0]!.zero_tap_terms_accepted;
    const err = await client.createTemplate(auth(), { ...zeroTap, components } as never).catch((e: unknown) => e);
    expect((err as ProviderError).error).toMatchObject({ code: 100, error_user_msg: expect.stringContaining('zero_tap_terms_accepted') });
  });
});
