import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporalAddress } from './testing/temporal';
import { ensureSearchAttributes } from './search-attributes';
import { WEBHOOK_SEARCH_ATTRIBUTES } from './webhook-processing/contract';

/**
 * A Temporal the user brings (TEMPORAL_ADDRESS) has none of our search attributes: the worker
 * registers them at start. Against the real dev server, on a namespace of its own.
 */
let connection: Connection;
beforeAll(async () => {
  connection = await Connection.connect({ address: temporalAddress() });
});
afterAll(async () => connection?.close());

it('registers every missing search attribute with its type, once', async () => {
  const namespace = `mos-sa-${randomBytes(4).toString('hex')}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  const client = new Client({ connection, namespace });
  // A new namespace takes a moment to reach every service of the dev server.
  let added: string[] | null = null;
  for (let attempt = 0; added === null; attempt++) {
    try {
      added = await ensureSearchAttributes(client);
    } catch (err) {
      if (attempt > 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  expect(added.sort()).toEqual(WEBHOOK_SEARCH_ATTRIBUTES.map((k) => k.name).sort());
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  expect(customAttributes).toMatchObject({ WebhookEventIds: 7, WorkspaceIds: 7, Topics: 7, WebhookEventId: 2, WorkspaceId: 2, Topic: 2 });
  expect(await ensureSearchAttributes(client)).toEqual([]);
}, 60_000);
