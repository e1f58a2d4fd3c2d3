import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@mos/core';
import { createLogger } from '@mos/config';
import { recordRevision, resolveContact, upsertReaction, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createRetentionActivities } from './activities';

/**
 * Versions and reactions of messages we never stored (the common case for a reaction: the
 * customer reacts to a message the business sent from its app or another system) go by their
 * own age, batch by batch, counted like every other kind, and a batch is not `done` while
 * they are left.
 */
describe('purgeRetentionBatch: versions and reactions of messages we never stored', () => {
  let tdb: TestDatabase;
  let ws: string;
  const old = new Date('2025-05-01T00:00:00Z');
  const cutoff = '2025-07-01T00:00:00.000Z';
  const activities = () =>
    createRetentionActivities({
      db: tdb.db,
      log: createLogger({ name: 'retention-test', level: 'silent' }),
      clock: fixedClock(new Date('2025-09-01T00:00:00Z')),
    });
  const q = async (sql: string) => (await tdb.pool.query(sql, [ws])).rows[0].n as number;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = (await upsertWorkspace(tdb.db, 'retention-orphans', { dataRetentionDays: 30 })).workspace.id;
    const contact = await resolveContact(tdb.db, ws, { phoneNumber: '+16505551234', userId: null }, { at: old });
    for (let i = 0; i < 3; i++) {
      const at = new Date(old.getTime() + i * 60_000);
      await upsertReaction(tdb.db, ws, {
        reactedToMessageId: `wamid.theirs-${i}`,
        contactId: contact.id,
        providerMessageId: `wamid.r-${i}`,
        emoji: '👍',
        occurredAt: at,
      });
      await recordRevision(tdb.db, ws, {
        kind: 'edit',
        providerMessageId: `wamid.e-${i}`,
        messageProviderId: `wamid.never-${i}`,
        contactId: contact.id,
        occurredAt: at,
        content: { kind: 'text', body: 'secret words' },
        text: 'secret words',
      });
    }
    // Newer than the cutoff: stays.
    await upsertReaction(tdb.db, ws, {
      reactedToMessageId: 'wamid.theirs-new',
      contactId: contact.id,
      providerMessageId: 'wamid.r-new',
      emoji: '🎉',
      occurredAt: new Date('2025-08-20T00:00:00Z'),
    });
  });
  afterAll(async () => tdb?.drop());

  it('are purged in batches, counted, and keep the purge going until none is left', async () => {
    const batch = () => activities().purgeRetentionBatch({ workspaceId: ws, cutoff, batchSize: 2 });
    expect(await batch()).toEqual({ messages: 0, webhookEvents: 0, deliveryStatuses: 0, messageVersions: 2, reactions: 2, done: false });
    expect(await batch()).toEqual({ messages: 0, webhookEvents: 0, deliveryStatuses: 0, messageVersions: 1, reactions: 1, done: true });
    expect(await batch()).toEqual({ messages: 0, webhookEvents: 0, deliveryStatuses: 0, messageVersions: 0, reactions: 0, done: true });
    expect(await q('SELECT count(*)::int AS n FROM message_revisions WHERE workspace_id = $1 AND (content IS NOT NULL OR text IS NOT NULL)')).toBe(0);
    expect(await q('SELECT count(*)::int AS n FROM message_reactions WHERE workspace_id = $1')).toBe(1);
  });
});
