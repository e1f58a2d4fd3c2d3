import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type OutboundContent } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import { upsertWorkspace } from './workspaces';
import { resolveContact } from './contact-identity';
import { touchConversationInbound } from './conversations';
import { insertOutboundMessage, getOutboundMessage } from './outbound-messages';
import { claimDueSends, claimGovernorWake, markGovernorIdle, recordSendResults, requeueUnanswered, type ClaimOptions } from './send-queue';
import { insertBroadcast, updateBroadcast } from './broadcasts';
import { storeTestWebhookJob } from '../testing/webhooks';

/**
 * The governor's ledgers on a real database: the per-second budget holds across concurrent
 * claimers, one recipient is never claimed twice within the pair spacing, send-time rules
 * refuse what may no longer go, and answers move only rows still in flight.
 */
const PHONE = '106540352242922';
const TEMPLATE: OutboundContent = { kind: 'template', template: { name: 'hello', language: 'en' } };
let tdb: TestDatabase;
let ws: string;
let n = 0;

const opts = (now: Date, perSecond = 10): ClaimOptions => ({ now, perSecond, pairSpacingMs: 6000, slotSlackMs: 1250 });
const claim = (now: Date, perSecond = 10) => tdb.db.transaction((tx) => claimDueSends(tx, ws, PHONE, opts(now, perSecond)));

async function queue(count: number, init: { phone?: string; content?: OutboundContent; broadcastId?: string; at?: Date } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const phone = init.phone ?? `+1777${String(++n).padStart(7, '0')}`;
    const c = await resolveContact(tdb.db, ws, { phoneNumber: phone, userId: null }, { at: new Date() });
    const { row } = await insertOutboundMessage(
      tdb.db,
      ws,
      { contactId: c.id, phoneNumberId: PHONE, toPhone: phone, content: init.content ?? TEMPLATE, broadcastId: init.broadcastId ?? null },
      init.at ?? new Date('2026-01-01T00:00:00Z'),
    );
    ids.push(row.id);
  }
  return ids;
}

async function clear(): Promise<void> {
  await tdb.pool.query(`DELETE FROM outbound_messages; DELETE FROM send_rate_windows; DELETE FROM recipient_sends;`);
}

beforeAll(async () => {
  tdb = await createTestDatabase({ max: 8 });
  ws = (await upsertWorkspace(tdb.db, `sq-${newId('request').slice(-8)}`, { phoneNumberId: PHONE })).workspace.id;
}, 60_000);
afterAll(async () => tdb?.drop());

describe('claimDueSends', () => {
  it('four concurrent claimers in one second share one budget', async () => {
    await clear();
    await queue(40);
    const now = new Date('2026-06-01T10:00:00.000Z');
    const results = await Promise.all([claim(now), claim(now), claim(now), claim(now)]);
    const claimed = results.flatMap((r) => r.sends.map((s) => s.id));
    expect(claimed).toHaveLength(10);
    expect(new Set(claimed).size).toBe(10);
    // The next second has its own budget.
    expect((await claim(new Date('2026-06-01T10:00:01.000Z'))).sends).toHaveLength(10);
  });

  it('spaces slots evenly inside the first 880 ms and gives no more slots than the second has left', async () => {
    await clear();
    await queue(20);
    const first = await claim(new Date('2026-06-01T11:00:00.000Z'));
    expect(first.sends.map((s) => s.slotAt - Date.parse('2026-06-01T11:00:00.000Z'))).toEqual([0, 88, 176, 264, 352, 440, 528, 616, 704, 792]);
    await clear();
    await queue(20);
    // 600 ms into the second, slots 0..6 are gone (beyond the 50 ms tolerance): three remain.
    const late = await claim(new Date('2026-06-01T11:00:00.600Z'));
    expect(late.sends).toHaveLength(3);
    expect(late.budgetExhausted).toBe(true);
  });

  it('claims one message per recipient per pair spacing and pushes the rest later', async () => {
    await clear();
    const ids = await queue(1, { phone: '+17770009999' });
    ids.push(...(await queue(1, { phone: '+17770009999' })));
    const t0 = new Date('2026-06-01T12:00:00.000Z');
    const first = (await claim(t0)).sends.map((s) => s.id);
    expect(first).toHaveLength(1);
    const other = ids.find((id) => id !== first[0])!;
    expect((await getOutboundMessage(tdb.db, ws, other))!.notBefore.getTime()).toBe(t0.getTime() + 6000 + 1250);
    expect((await claim(new Date(t0.getTime() + 5000))).sends).toHaveLength(0);
    expect((await claim(new Date(t0.getTime() + 7250))).sends.map((s) => s.id)).toEqual([other]);
  });

  it('refuses at send time: an unsubscribed contact is skipped, a closed window fails free-form content', async () => {
    await clear();
    const [unsub] = await queue(1);
    const [text] = await queue(1, { content: { kind: 'text', text: { body: 'hi' } } });
    await tdb.pool.query(`UPDATE contacts SET subscriber_status = 'unsubscribed' WHERE id = (SELECT contact_id FROM outbound_messages WHERE id = $1)`, [unsub]);
    const out = await claim(new Date('2026-06-01T13:00:00.000Z'));
    expect(out).toMatchObject({ sends: [], refused: 2 });
    expect(await getOutboundMessage(tdb.db, ws, unsub!)).toMatchObject({ status: 'skipped', error: { code: 'contact_unsubscribed' } });
    expect(await getOutboundMessage(tdb.db, ws, text!)).toMatchObject({ status: 'failed', error: { code: 'outside_service_window' } });
  });

  it('free-form content inside the window goes; a paused broadcast is passed over', async () => {
    await clear();
    const [text] = await queue(1, { content: { kind: 'text', text: { body: 'hi' } } });
    const contactId = (await getOutboundMessage(tdb.db, ws, text!))!.contactId;
    await touchConversationInbound(tdb.db, ws, contactId, new Date('2026-06-01T13:30:00.000Z'));
    const b = await insertBroadcast(
      tdb.db,
      ws,
      { name: null, template: TEMPLATE.template, segment: {}, phoneNumberId: PHONE, status: 'paused', scheduledAt: null },
      new Date(),
    );
    await queue(3, { broadcastId: b.id });
    const out = await claim(new Date('2026-06-01T14:00:00.000Z'));
    expect(out.sends.map((s) => s.id)).toEqual([text]);
    await updateBroadcast(tdb.db, ws, b.id, { status: 'running' });
    expect((await claim(new Date('2026-06-01T14:00:01.000Z'))).sends).toHaveLength(3);
  });
});

describe('recording answers', () => {
  it('moves only rows still sending; a release does not count the attempt; unanswered sends are requeued after the delay', async () => {
    await clear();
    const ids = await queue(4);
    const t = new Date('2026-06-01T15:00:00.000Z');
    await claim(t);
    await recordSendResults(
      tdb.db,
      ws,
      [
        { id: ids[0]!, kind: 'accepted', providerMessageId: 'wamid.A', at: t },
        { id: ids[1]!, kind: 'failed', error: { code: 132001, title: 'Template name does not exist in the translation' }, at: t },
        { id: ids[2]!, kind: 'released' },
      ],
      t,
    );
    expect(await getOutboundMessage(tdb.db, ws, ids[0]!)).toMatchObject({ status: 'sent', statusRank: 1, providerMessageId: 'wamid.A', attempts: 1 });
    expect(await getOutboundMessage(tdb.db, ws, ids[1]!)).toMatchObject({ status: 'failed', error: { code: 132001 } });
    expect(await getOutboundMessage(tdb.db, ws, ids[2]!)).toMatchObject({ status: 'queued', attempts: 0 });
    // A late duplicate answer changes nothing on a row that already moved.
    await recordSendResults(tdb.db, ws, [{ id: ids[1]!, kind: 'accepted', providerMessageId: 'wamid.B', at: t }], t);
    expect(await getOutboundMessage(tdb.db, ws, ids[1]!)).toMatchObject({ status: 'failed' });
    // ids[3] never got an answer: still sending until the delay passes.
    expect(await requeueUnanswered(tdb.db, ws, PHONE, new Date(t.getTime() - 1), t)).toBe(0);
    expect(await requeueUnanswered(tdb.db, ws, PHONE, new Date(t.getTime() + 1), t)).toBe(1);
    expect(await getOutboundMessage(tdb.db, ws, ids[3]!)).toMatchObject({ status: 'queued', attempts: 1 });
  });
});

describe('requeueing an unanswered send', () => {
  it('waits while a webhook that could name it is still in the pipeline', async () => {
    await clear();
    const [id] = await queue(1);
    const t = new Date('2026-06-01T16:00:00.000Z');
    await claim(t);
    // A webhook received 30 s after the claim, not applied yet: it may carry this send's `sent`.
    const { jobId } = await storeTestWebhookJob(tdb.db, ws, { body: '{}', notify: false });
    await tdb.pool.query(`UPDATE outbox_jobs SET created_at = $2 WHERE id = $1`, [jobId, new Date(t.getTime() + 30_000)]);
    const later = new Date(t.getTime() + 120_000);
    expect(await requeueUnanswered(tdb.db, ws, PHONE, new Date(later.getTime() - 60_000), later)).toBe(0);
    expect(await getOutboundMessage(tdb.db, ws, id!)).toMatchObject({ status: 'sending' });
    await tdb.pool.query(`UPDATE outbox_jobs SET status = 'completed' WHERE id = $1`, [jobId]);
    expect(await requeueUnanswered(tdb.db, ws, PHONE, new Date(later.getTime() - 60_000), later)).toBe(1);
  });
});

describe('governor wake and idle', () => {
  it('one wake per idle period; idle only when nothing is queued', async () => {
    await clear();
    await tdb.pool.query(`DELETE FROM send_governors`);
    expect(await claimGovernorWake(tdb.db, ws, PHONE)).toBe(true);
    expect(await claimGovernorWake(tdb.db, ws, PHONE)).toBe(false);
    await queue(1);
    expect(await markGovernorIdle(tdb.db, ws, PHONE)).toBe(false);
    await clear();
    expect(await markGovernorIdle(tdb.db, ws, PHONE)).toBe(true);
    const wakes = await Promise.all(Array.from({ length: 5 }, () => claimGovernorWake(tdb.db, ws, PHONE)));
    expect(wakes.filter(Boolean)).toHaveLength(1);
  });
});
