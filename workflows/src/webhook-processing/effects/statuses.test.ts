import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConversation, insertMessage, resolveContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, SHEENA_PHONE, status, unixIso } from './testing/families';

/**
 * message.status with the provider's status examples (D/webhooks/reference/messages/status:
 * status_sent_marketing_with_pricing_conversation.json, status_failed_131049.json;
 * D/webhooks/reference/messages: status_delivered_service_cbp_overview.json). The provider
 * publishes no `played` example; its status reference lists `played` for voice messages.
 */
const OUT = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=';

describe('message.status effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const storeOutbound = async (ws: string, type = 'audio') => {
    const contact = await resolveContact(tdb.db, ws, { phoneNumber: SHEENA_PHONE, userId: null }, { at: new Date(1750030000 * 1000) });
    const conv = await ensureConversation(tdb.db, ws, contact.id);
    return (
      await insertMessage(tdb.db, ws, {
        conversationId: conv.id,
        contactId: contact.id,
        direction: 'outbound',
        providerMessageId: OUT,
        type,
        sentAt: new Date(1750030000 * 1000),
      })
    ).message;
  };

  it('keeps pricing (billable, model, category, type) and our callback data on the status row', async () => {
    const ws = await h.workspace();
    await h.apply(ws, status({ callbackData: 'order-4711' }));
    const [row] = await h.statuses(ws);
    expect(row).toMatchObject({
      status: 'sent',
      provider_message_id: OUT,
      provider_conversation_id: '72b14d6bd5407799e66f64d1b338e567',
      pricing_billable: true,
      pricing_model: 'PMP',
      pricing_category: 'marketing',
      pricing_type: 'regular',
      callback_data: 'order-4711',
    });
    const [window] = (await tdb.pool.query('SELECT * FROM conversation_windows WHERE workspace_id = $1', [ws])).rows;
    expect(window).toMatchObject({ origin_type: 'marketing', billable: true, pricing_model: 'PMP', pricing_category: 'marketing' });
    expect(window.expires_at).toEqual(new Date(1750116480 * 1000));
  });

  it('read before delivered before sent, duplicated, for a message not stored yet: kept, and joined when it is', async () => {
    const ws = await h.workspace();
    const read = status({ status: 'read', occurredAt: unixIso(1750030090), conversation: null, pricing: null });
    const delivered = status({ status: 'delivered', occurredAt: unixIso(1750030080), conversation: null, pricing: null });
    await h.apply(ws, read, delivered, read, status(), delivered);
    expect((await h.statuses(ws)).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    const message = await storeOutbound(ws, 'text');
    expect(message).toMatchObject({ status: 'read', statusRank: 3 });
    await h.apply(ws, status(), delivered);
    expect(await h.message(ws, OUT)).toMatchObject({ status: 'read', status_rank: 3 });
  });

  it('played ranks above read, whatever the order', async () => {
    const ws = await h.workspace();
    await storeOutbound(ws);
    await h.apply(ws, status({ status: 'played', occurredAt: unixIso(1750030100), conversation: null }));
    await h.apply(ws, status({ status: 'read', occurredAt: unixIso(1750030090), conversation: null }));
    expect(await h.message(ws, OUT)).toMatchObject({ status: 'played', status_rank: 4 });
    expect((await h.statuses(ws)).map((s) => s.status)).toEqual(['read', 'played']);
  });

  it('failed: kept apart from the rank with the provider error (status_failed_131049.json)', async () => {
    const ws = await h.workspace();
    await storeOutbound(ws, 'template');
    await h.apply(ws, status({ status: 'delivered', conversation: null }));
    await h.apply(
      ws,
      status({
        status: 'failed',
        occurredAt: unixIso(1751142888),
        conversation: null,
        pricing: null,
        errors: [
          {
            code: 131049,
            title: 'This message was not delivered to maintain healthy ecosystem engagement.',
            message: 'This message was not delivered to maintain healthy ecosystem engagement.',
            details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
            href: '/documentation/business-messaging/whatsapp/support/error-codes',
          },
        ],
      }),
    );
    const msg = await h.message(ws, OUT);
    expect(msg).toMatchObject({ status: 'delivered', status_rank: 2, error_code: 131049 });
    expect(msg.failed_at).toEqual(new Date(1751142888 * 1000));
    const failed = (await h.statuses(ws)).find((s) => s.status === 'failed');
    expect(failed).toMatchObject({ error_code: 131049, error_details: expect.stringMatching(/healthy ecosystem/) });
  });

  it('`deleted` is not a delivery state and is not recorded', async () => {
    const ws = await h.workspace();
    await h.apply(ws, status({ status: 'deleted', conversation: null }));
    expect(await h.statuses(ws)).toEqual([]);
  });

  it('CBP service pricing without an expiry (status_delivered_service_cbp_overview.json); replays change nothing', async () => {
    const ws = await h.workspace();
    const ev = status({
      providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MTE5MjVBOTE3MDk5QUVFM0YA',
      status: 'delivered',
      occurredAt: unixIso(1750263773),
      conversation: { id: '6ceb9d929c9bdc4f90e967a32f8639b4', originType: 'service', expiresAt: null },
      pricing: { billable: true, model: 'CBP', category: 'service', type: null },
    });
    await h.apply(ws, ev);
    const before = await h.snapshot(ws);
    await h.apply(ws, ev, ev);
    expect(await h.snapshot(ws)).toEqual(before);
    expect(before.conversation_windows).toEqual([expect.objectContaining({ origin_type: 'service', pricing_model: 'CBP', expires_at: null })]);
    expect(before.message_statuses).toEqual([expect.objectContaining({ pricing_type: null, pricing_model: 'CBP' })]);
  });
});
