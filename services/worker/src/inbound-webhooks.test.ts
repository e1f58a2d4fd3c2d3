import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundSigningKey, signInboundBody } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { rawRequest } from '@mos/http/testing';
import { createInboundWebhook, getInboundWebhookRun, promoteInboundWebhook } from '@mos/app';
import { waitFor } from './testing';
import { seedTemplate, startSendStack, type SendStack } from './testing/send-stack';

/**
 * An external system's signed webhook, end to end: the API maps it to a template send, the
 * governor sends it through the provider simulator, the simulator's status webhooks come back
 * through the pipeline, and the run shows the message delivered.
 */
let tdb: TestDatabase;
let stack: SendStack;

beforeAll(async () => {
  tdb = await createTestDatabase();
  stack = await startSendStack(tdb.db, tdb.url, { sim: { readShare: 0 } });
  await seedTemplate(stack, 'order_ready', 'Hi {{1}}, order {{2}} is ready');
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await tdb?.drop();
});

describe('a live inbound webhook', () => {
  it('sends the mapped template, and its run shows the delivered message', async () => {
    const created = await createInboundWebhook(
      stack.deps,
      stack.scope,
      {
        name: 'Shop',
        templateName: 'order_ready',
        templateLocale: 'en_US',
        mapping: { to: 'path:customer.msisdn', 'parameters.body.1': 'customer.name', 'parameters.body.2': 'path:order.number' },
      },
      'admin',
    );
    await promoteInboundWebhook(stack.deps, stack.scope, { id: created.inboundWebhook.id, live: true });
    const body = JSON.stringify({ customer: { msisdn: '0044 7700 900 456', name: 'Ada' }, order: { number: 4711 } });
    const t = Math.floor(Date.now() / 1000);
    const res = await rawRequest(`${stack.apiUrl}/api/v1/inbound-webhooks/${created.inboundWebhook.slug}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': signInboundBody(inboundSigningKey(created.secret), t, body),
        'idempotency-key': 'order-4711',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: true, status: 'queued', dryRun: false, messageId: expect.stringMatching(/^msg_/) });

    const run = await waitFor(
      async () => {
        const r = await getInboundWebhookRun(stack.deps, stack.scope, res.body.runId);
        return r.message?.status === 'delivered' ? r : null;
      },
      { timeoutMs: 30_000, what: 'the run to show its message delivered' },
    );
    expect(run).toMatchObject({ status: 'queued', message: { id: res.body.messageId, status: 'delivered' } });
    expect(run.message!.statusHistory.map((h) => h.status)).toEqual(['queued', 'sent', 'delivered']);
    // What the provider received: the template with the mapped values, to the normalized number.
    const sent = stack.sim.messages().find((m) => m.callbackData === res.body.messageId);
    expect(sent).toMatchObject({
      to: '447700900456',
      type: 'template',
      body: {
        template: {
          name: 'order_ready',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: '4711' },
              ],
            },
          ],
        },
      },
    });
  }, 60_000);
});
