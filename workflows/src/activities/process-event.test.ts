import { readFileSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, PROCESS_WEBHOOK_EVENT, systemClock } from '@mos/core';
import { createLogger } from '@mos/config';
import { findDeliveryForJob, outboxJobs, upsertWorkspace, webhookEvents } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { WebhookFailureType } from '../shared';
import { noopEffects } from './effects';
import { createProcessEvent } from './process-event';

/**
 * What the worker says about a stored body the ingress could not read: the parser's reason, in
 * words, with the stored topic's failure type; and a body stored as unreadable by an older
 * parser (before the provider's `whatsapp_business_account` was accepted) is processed now.
 * The provider's example: fixtures/provider-docs/message_template_status_update_approved.json
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/message_template_status_update).
 */
const APPROVED = readFileSync(new URL('../../../packages/core/src/webhooks/fixtures/provider-docs/message_template_status_update_approved.json', import.meta.url));

describe('processEvent on bodies stored as unparseable', () => {
  let tdb: TestDatabase;
  let workspaceId: string;
  const log = createLogger({ name: 'process-event-test', level: 'silent' });
  beforeAll(async () => {
    tdb = await createTestDatabase();
    workspaceId = (await upsertWorkspace(tdb.db, `pe-${process.pid}-${Date.now()}`)).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  async function store(topic: string, body: Buffer | string) {
    const webhookEventId = newId('webhookEvent');
    const jobId = newId('job');
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
    await tdb.db.insert(webhookEvents).values({
      id: webhookEventId, workspaceId, source: 'messaging', topic, requestId: newId('request'), deliveryId: null, signatureValid: true,
      headers: {}, query: {}, bodyHash: 'test', rawBody: raw, bodySize: raw.length, summary: {}, normalizationStatus: 'pending', responseStatus: 200, receivedAt: new Date(),
    });
    await tdb.db.insert(outboxJobs).values({ id: jobId, workspaceId, jobType: PROCESS_WEBHOOK_EVENT, status: 'pending', dedupKey: `event:${webhookEventId}`, payload: { webhookEventId } });
    return { workspaceId, webhookEventId, jobId, deliveryId: newId('delivery') };
  }

  const run = (input: Awaited<ReturnType<typeof store>>) =>
    new MockActivityEnvironment().run(createProcessEvent({ db: tdb.db, log, clock: systemClock, effects: noopEffects }), input);

  async function failure(input: Awaited<ReturnType<typeof store>>): Promise<ApplicationFailure> {
    const err = await run(input).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    return err as ApplicationFailure;
  }

  it('invalid_payload: an unknown object is named (escaped), with what mos reads instead', async () => {
    const err = await failure(await store('invalid_payload', '{"object":"page\\n\\"x","entry":[]}'));
    expect(err.type).toBe(WebhookFailureType.InvalidPayload);
    expect(err.message).toBe('the envelope\'s object is "page\\u{a}\\"x"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries');
  });

  it('invalid_payload: a missing part is named by its path, no values', async () => {
    const err = await failure(await store('invalid_payload', '{"object":"whatsapp_business_account","entry":[{"id":"16505551234"}]}'));
    expect(err.type).toBe(WebhookFailureType.InvalidPayload);
    expect(err.message).toBe('entry[0].changes is missing');
  });

  it('invalid_json keeps its failure type and says so', async () => {
    const err = await failure(await store('invalid_json', '{"object": '));
    expect(err.type).toBe(WebhookFailureType.InvalidJson);
    expect(err.message).toBe('the body is not UTF-8 JSON');
  });

  it('a provider delivery stored as invalid_payload before its object name was accepted is processed now', async () => {
    const input = await store('invalid_payload', APPROVED);
    const result = await run(input);
    expect(result).toMatchObject({ status: 'processed', topic: 'unknown', familyCount: 1 });
    expect(await findDeliveryForJob(tdb.db, workspaceId, input.jobId)).toMatchObject({
      status: 'processed', topic: 'unknown', families: [{ family: 'template.updated', ref: '1689556908129832', detail: 'status:approved' }],
    });
  });
});
