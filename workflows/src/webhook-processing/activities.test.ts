import { readFileSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, newId, systemClock } from '@mos/core';
import { createLogger } from '@mos/config';
import { findDeliveryForJob, listAccountEvents, upsertWorkspace } from '@mos/db';
import { createTestDatabase, storeTestWebhookJob, type TestDatabase } from '@mos/db/testing';
import { createProcessEvent } from './activities';
import { WebhookFailureType } from './contract';
import { createAccountEffects } from './effects/account';
import { createContactEffects } from './effects/contacts';
import { composeEffects, noopEffects, type FamilyEffects } from './effects/family-effects';

/**
 * What the worker says about a stored body the ingress could not read: the parser's reason, in
 * words, with the stored topic's failure type; and a body stored as unreadable by an older
 * parser (before the provider's `whatsapp_business_account` was accepted) is processed now.
 * The provider's example: docs/provider-reference/webhooks/message_template_status_update_approved.json
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/message_template_status_update).
 */
const REFERENCE = new URL('../../../docs/provider-reference/webhooks/', import.meta.url);
const APPROVED = readFileSync(new URL('message_template_status_update_approved.json', REFERENCE));

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
    const { webhookEventId, jobId } = await storeTestWebhookJob(tdb.db, workspaceId, { topic, body });
    return { workspaceId, webhookEventId, jobId, deliveryId: newId('delivery') };
  }

  const run = (input: Awaited<ReturnType<typeof store>>, effects: FamilyEffects = noopEffects) =>
    new MockActivityEnvironment().run(createProcessEvent({ db: tdb.db, log, clock: systemClock, effects }), input);

  async function failure(input: Awaited<ReturnType<typeof store>>): Promise<ApplicationFailure> {
    const err = await run(input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    return err as ApplicationFailure;
  }

  it('invalid_payload: an unknown object is named (escaped), with what mos reads instead', async () => {
    const err = await failure(await store('invalid_payload', '{"object":"page\\n\\"x","entry":[]}'));
    expect(err.type).toBe(WebhookFailureType.InvalidPayload);
    expect(err.message).toBe(
      'the envelope\'s object is "page\\u{a}\\"x"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries',
    );
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
      status: 'processed',
      topic: 'unknown',
      families: [{ family: 'template.updated', ref: '1689556908129832', detail: 'status:approved' }],
    });
    // The event row no longer says invalid_payload: it takes today's topic and summary.
    const [row] = (await tdb.pool.query('SELECT topic, summary, normalization_status FROM webhook_events WHERE id = $1', [input.webhookEventId])).rows;
    expect(row).toEqual({
      topic: 'unknown',
      summary: expect.objectContaining({ object: 'whatsapp_business_account', topic: 'unknown', changeCount: 1 }),
      normalization_status: 'processed',
    });
    expect(row.summary).not.toHaveProperty('issues');
  });
});

/**
 * The provider may put a NUL inside any string; PostgreSQL refuses it in text and jsonb, and
 * a refused write is retried 40 times and then lost with the rest of the delivery. A delivery
 * built from the provider's examples (messages_text.json, repaired as in
 * packages/core/src/webhooks/fixtures/provider-docs: D/webhooks/reference/messages/text, and
 * account_alerts_capabilities_deferred.json: D/webhooks/reference/account_alerts, where
 * D = https://developers.facebook.com/documentation/business-messaging/whatsapp), with NULs
 * put into the text, the profile name and the alert's description.
 */
describe('processEvent: what reaches the database and what a failure says', () => {
  let tdb: TestDatabase;
  let workspaceId: string;
  const log = createLogger({ name: 'process-event-test', level: 'silent' });
  beforeAll(async () => {
    tdb = await createTestDatabase();
    workspaceId = (await upsertWorkspace(tdb.db, `pe2-${process.pid}-${Date.now()}`)).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  const alerts = JSON.parse(readFileSync(new URL('account_alerts_capabilities_deferred.json', REFERENCE), 'utf8'));
  const withNuls = () => {
    const alertEntry = alerts.entry[0];
    const alertChange = alertEntry.changes[0];
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
                contacts: [{ profile: { name: 'Sheena\u0000Nelson' }, wa_id: '16505551234' }],
                messages: [
                  {
                    from: '16505551234',
                    id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
                    timestamp: '1749416383',
                    type: 'text',
                    text: { body: 'Does it come\u0000in another color?' },
                  },
                ],
              },
            },
          ],
        },
        {
          ...alertEntry,
          changes: [{ ...alertChange, value: { ...alertChange.value, alert_info: { ...alertChange.value.alert_info, alert_description: 'a\u0000b' } } }],
        },
      ],
    };
  };

  async function store(body: unknown) {
    const { webhookEventId, jobId } = await storeTestWebhookJob(tdb.db, workspaceId, { body });
    return { workspaceId, webhookEventId, jobId, deliveryId: newId('delivery') };
  }
  const run = (input: Awaited<ReturnType<typeof store>>, effects: FamilyEffects) =>
    new MockActivityEnvironment().run(createProcessEvent({ db: tdb.db, log, clock: systemClock, effects }), input);

  it('a NUL in a message text, a profile name or an account alert is stored as the text \\u0000, and the delivery processes', async () => {
    const effects = composeEffects(createContactEffects({ log }), createAccountEffects({ clock: fixedClock(new Date('2026-01-01T00:00:00Z')) }));
    const input = await store(withNuls());
    expect(await run(input, effects)).toMatchObject({ status: 'processed', familyCount: 3 });
    const q = async (sql: string) => (await tdb.pool.query(sql, [workspaceId])).rows;
    expect(await q('SELECT body, content FROM messages WHERE workspace_id = $1')).toEqual([
      { body: 'Does it come\\u0000in another color?', content: { kind: 'text', body: 'Does it come\\u0000in another color?' } },
    ]);
    expect(await q('SELECT profile_name FROM contacts WHERE workspace_id = $1')).toEqual([{ profile_name: 'Sheena\\u0000Nelson' }]);
    const [alert] = await listAccountEvents(tdb.db, workspaceId, { limit: 10, offset: 0, field: 'account_alerts' });
    expect((alert!.value as { alert_info: { alert_description: string } }).alert_info.alert_description).toBe('a\\u0000b');
  });

  const failing = (thrown: () => Promise<never>): FamilyEffects => composeEffects({ applyInbound: thrown });
  async function failure(effects: FamilyEffects): Promise<ApplicationFailure> {
    const err = await run(await store(withNuls()), effects).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    return err as ApplicationFailure;
  }

  it('a database error from an effect says only that, with its code; no query, no parameters; still retried', async () => {
    const err = await failure(
      composeEffects({
        applyInbound: async () => {
          await tdb.pool.query('SELECT $1::int', ['Sheena Nelson +16505551234']);
        },
      }),
    );
    expect(err).toMatchObject({ type: 'EffectFailed', nonRetryable: false });
    expect(err.message).toBe('applying a message.inbound family failed: database error 22P02');
    expect(JSON.stringify({ message: err.message, details: err.details, cause: err.cause })).not.toMatch(/16505551234|Sheena/);

    // Through drizzle, whose error reads "Failed query: insert into contacts ... params: ...,+16505551234,...,Sheena\u0000Nelson":
    // the real contact effect writing into a workspace that does not exist (a foreign key violation).
    const contacts = createContactEffects({ log });
    const viaDrizzle = await failure(composeEffects({ applyInbound: (db, _ws, family) => contacts.applyInbound(db, 'wsp_missing', family) }));
    expect(viaDrizzle).toMatchObject({ type: 'EffectFailed', nonRetryable: false });
    expect(viaDrizzle.message).toBe('applying a message.inbound family failed: database error 23503');
  });

  it("any other error is named by its class only; an effect's own ApplicationFailure passes as it is", async () => {
    const other = await failure(
      failing(async () => {
        throw new TypeError('Sheena Nelson said "refund"');
      }),
    );
    expect(other).toMatchObject({ type: 'EffectFailed', nonRetryable: false });
    expect(other.message).toBe('applying a message.inbound family failed: TypeError thrown');
    const own = ApplicationFailure.create({ type: 'MissingContactIdentity', message: 'from has neither a phone number nor a user id', nonRetryable: true });
    expect(
      await failure(
        failing(async () => {
          throw own;
        }),
      ),
    ).toBe(own);
  });
});
