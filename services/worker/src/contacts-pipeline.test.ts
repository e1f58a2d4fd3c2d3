import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signProviderBody } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createApiApp } from '@mos/api';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { fixtureBody, sharedWorkflowBundle, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';
import { startWorkerRuntime, type WorkerRuntime } from './worker';

/**
 * Contacts, conversations and messages through the real pipeline with the production
 * effects wiring (no `effects` override): signed webhook into the API app -> outbox ->
 * relay -> Temporal `processWebhookEvent` -> rows.
 */
const SECRET = 'whsec-contacts-e2e';
const OUTBOUND_ID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';

describe('contact effects on the real pipeline', () => {
  let tdb: TestDatabase;
  let api: Awaited<ReturnType<typeof listen>>;
  let runtime: WorkerRuntime;
  let op: SeededOperator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db, { env: { WEBHOOK_INGRESS_CACHE_MS: '0' } });
    api = await listen(createApiApp(deps));
    op = await seedOperator(deps, { providerIngress: true, wabaId: '102290129340398' });
    await deps.vault.set(deps.db, op.workspaceId, 'webhook-signing-secret', SECRET);
    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('contacts') },
      relay: { pollIntervalMs: 250 },
      heartbeatIntervalMs: 1_000,
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
  }, 120_000);
  afterAll(async () => {
    await runtime?.stop();
    await api?.close();
    await tdb?.drop();
  });

  const post = async (name: string) => {
    const body = fixtureBody(name);
    const res = await fetch(`${api.url}/webhooks/messaging`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signProviderBody(SECRET, body) },
      body,
    });
    const json = (await res.json()) as { accepted: boolean; webhookEventId: string };
    expect(json.accepted).toBe(true);
    return json.webhookEventId;
  };
  const processed = (n: number) =>
    waitFor(
      async () => {
        const r = await tdb.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE workspace_id = $1 AND status = 'processed'`, [op.workspaceId]);
        return r.rows[0].n >= n;
      },
      { timeoutMs: 60_000, what: `${n} processed deliveries` },
    );
  const counts = async () =>
    (
      await tdb.pool.query(
        `SELECT
      (SELECT count(*)::int FROM contacts WHERE workspace_id = $1) AS contacts,
      (SELECT count(*)::int FROM messages WHERE workspace_id = $1) AS messages,
      (SELECT count(*)::int FROM message_statuses WHERE workspace_id = $1) AS statuses,
      (SELECT count(*)::int FROM conversation_windows WHERE workspace_id = $1) AS windows`,
        [op.workspaceId],
      )
    ).rows[0];

  it('inbound, statuses and STOP become contact, conversation, message and history rows', async () => {
    const inboundEvent = await post('inbound-text');
    for (const name of ['status-read', 'status-sent', 'inbound-stop']) await post(name);
    await processed(4);

    expect(await counts()).toEqual({ contacts: 1, messages: 2, statuses: 2, windows: 1 });
    const contact = (await tdb.pool.query('SELECT * FROM contacts WHERE workspace_id = $1', [op.workspaceId])).rows[0];
    expect(contact).toMatchObject({ phone_number: '+16505551234', name: 'Sheena Nelson', subscriber_status: 'unsubscribed' });
    const history = await tdb.pool.query('SELECT status FROM message_statuses WHERE workspace_id = $1 AND provider_message_id = $2 ORDER BY occurred_at', [
      op.workspaceId,
      OUTBOUND_ID,
    ]);
    expect(history.rows.map((r) => r.status)).toEqual(['sent', 'read']);

    const listed = await jsonRequest(`${api.url}/internal/contacts`, { headers: bearer(op.token) });
    expect(listed.body.contacts).toEqual([expect.objectContaining({ phoneNumber: '+16505551234', subscriberStatus: 'unsubscribed' })]);

    // A replay of the inbound delivery runs the whole path again and changes no counts.
    const before = await counts();
    const replay = await jsonRequest(`${api.url}/internal/webhooks/${inboundEvent}/replay`, { method: 'POST', headers: bearer(op.token) });
    expect(replay).toMatchObject({ status: 200, body: { accepted: true } });
    await processed(5);
    expect(await counts()).toEqual(before);
    expect((await tdb.pool.query('SELECT subscriber_status FROM contacts WHERE id = $1', [contact.id])).rows[0].subscriber_status).toBe('unsubscribed');
  }, 90_000);
});
