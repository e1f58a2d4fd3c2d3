import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../client';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import {
  applyMessageRevisions,
  ensureConversation,
  getMessageByProviderId,
  insertMessage,
  recordMessageStatus,
  recordRevision,
  resolveContact,
  upsertWorkspace,
} from './index';

/**
 * A message and what joins it (a revoke, an edit, a status) recorded by two transactions at
 * once, as two workers do when the provider delivers the message and its revoke or read
 * receipt in separate webhooks. Under READ COMMITTED neither sees the other's uncommitted
 * row; `lockProviderMessage` makes the second wait for the first, so they always join.
 */
describe('a message and its revoke, edit or status recorded concurrently still join', () => {
  let tdb: TestDatabase;
  let ws: string;
  let contactId: string;
  let conversationId: string;
  const at = new Date('2025-06-18T10:00:00Z');
  let n = 0;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = (await upsertWorkspace(tdb.db, 'message-join-race')).workspace.id;
    contactId = (await resolveContact(tdb.db, ws, { phoneNumber: '+16505551234', userId: null }, { at, inbound: true })).id;
    conversationId = (await ensureConversation(tdb.db, ws, contactId)).id;
  });
  afterAll(async () => tdb?.drop());

  const insert = (tx: Tx, id: string, direction: 'inbound' | 'outbound' = 'inbound') =>
    insertMessage(tx, ws, {
      conversationId,
      contactId,
      direction,
      providerMessageId: id,
      type: 'text',
      body: 'secret words',
      content: { kind: 'text', body: 'secret words' },
      sentAt: at,
    });
  const revoke = async (tx: Tx, id: string) => {
    await recordRevision(tx, ws, {
      kind: 'revoke',
      providerMessageId: `${id}.revoke`,
      messageProviderId: id,
      contactId,
      occurredAt: new Date(at.getTime() + 60_000),
    });
    await applyMessageRevisions(tx, ws, id);
  };
  const editTo = async (tx: Tx, id: string, body: string) => {
    await recordRevision(tx, ws, {
      kind: 'edit',
      providerMessageId: `${id}.edit`,
      messageProviderId: id,
      contactId,
      occurredAt: new Date(at.getTime() + 60_000),
      content: { kind: 'text', body },
      text: body,
    });
    await applyMessageRevisions(tx, ws, id);
  };
  const read = (tx: Tx, id: string) =>
    recordMessageStatus(tx, ws, { providerMessageId: id, status: 'read', occurredAt: new Date(at.getTime() + 30_000), contactId });

  /** Advisory-lock waits in this test's database (pg_locks is cluster-wide). */
  const waiting = async () =>
    (
      await tdb.pool.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      )
    ).rows[0].n as number;

  /**
   * `first` runs in a transaction held open; `second` starts in another and, once it waits on
   * the first (or, without the lock, has finished), the first commits.
   */
  async function concurrently(first: (tx: Tx) => Promise<unknown>, second: (tx: Tx) => Promise<unknown>): Promise<void> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ready!: () => void;
    const firstDone = new Promise<void>((resolve) => (ready = resolve));
    const one = tdb.db.transaction(async (tx) => {
      await first(tx);
      ready();
      await gate;
    });
    await firstDone;
    let settled = false;
    const two = tdb.db.transaction(async (tx) => void (await second(tx))).finally(() => (settled = true));
    for (let i = 0; i < 250 && !settled && (await waiting()) === 0; i++) await sleep(20);
    release();
    await Promise.all([one, two]);
  }

  const id = () => `wamid.race-${++n}`;

  it('a revoke recorded while the message is being inserted: the message is revoked, its content gone', async () => {
    const m = id();
    await concurrently(
      (tx) => insert(tx, m),
      (tx) => revoke(tx, m),
    );
    expect(await getMessageByProviderId(tdb.db, ws, m)).toMatchObject({ body: null, content: null, revokedAt: new Date(at.getTime() + 60_000) });
  });

  it('a message inserted while its revoke is being recorded: likewise', async () => {
    const m = id();
    await concurrently(
      (tx) => revoke(tx, m),
      (tx) => insert(tx, m),
    );
    expect(await getMessageByProviderId(tdb.db, ws, m)).toMatchObject({ body: null, content: null, revokedAt: new Date(at.getTime() + 60_000) });
  });

  it('an edit recorded while the message is being inserted: the message says the edited words', async () => {
    const m = id();
    await concurrently(
      (tx) => insert(tx, m),
      (tx) => editTo(tx, m, 'edited words'),
    );
    expect(await getMessageByProviderId(tdb.db, ws, m)).toMatchObject({ body: 'edited words', editedAt: new Date(at.getTime() + 60_000) });
  });

  it('a read receipt recorded while the message is being inserted, and the other way round: the message is read', async () => {
    const [a, b] = [id(), id()];
    await concurrently(
      (tx) => insert(tx, a, 'outbound'),
      (tx) => read(tx, a),
    );
    await concurrently(
      (tx) => read(tx, b),
      (tx) => insert(tx, b, 'outbound'),
    );
    expect(await getMessageByProviderId(tdb.db, ws, a)).toMatchObject({ status: 'read' });
    expect(await getMessageByProviderId(tdb.db, ws, b)).toMatchObject({ status: 'read' });
  });

  it('a new message with nothing waiting is stored as inserted; one with a status waiting takes it', async () => {
    const plain = id();
    const { message, created } = await tdb.db.transaction((tx) => insert(tx, plain, 'outbound'));
    expect(created).toBe(true);
    expect(message).toEqual(await getMessageByProviderId(tdb.db, ws, plain));
    const late = id();
    await tdb.db.transaction((tx) => read(tx, late));
    expect((await tdb.db.transaction((tx) => insert(tx, late, 'outbound'))).message).toMatchObject({ status: 'read' });
  });
});
