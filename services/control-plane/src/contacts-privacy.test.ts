import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@mos/core';
import { ensureConversation, insertMessage, listAuditLogs, resolveContact, type ContactRow } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { authenticate } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';
import { fixture, inboundText, storeAndApply } from './testing/contacts';

const PHONE = '+16505551234';
const OUTBOUND_ID = 'wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA';
const FIXTURES = ['inbound-text', 'inbound-image', 'inbound-button-reply', 'status-sent', 'status-delivered', 'status-read', 'status-failed-131047'];
/** Every piece of personal data seeded for Sheena; none may survive erasure in her workspace. */
const PERSONAL = [
  '16505551234',
  'Sheena',
  'Nelson',
  'another color',
  'damaged box',
  'Yes, confirm',
  'sheena@example.test',
  'crm-4242',
  'Your parcel',
  '1003383421387256',
  'color',
  'damaged',
  'parcel',
];

describe('GDPR export and erasure (control plane)', () => {
  let tdb: TestDatabase;
  let cp: Awaited<ReturnType<typeof listen>>;
  const ops = {} as Record<Role, SeededOperator>;
  let otherOwner: SeededOperator;
  let sheena: ContactRow;
  let marco: ContactRow;
  const envelopeIds: string[] = [];
  /** The contact holding a phone number (found, or created bare). */
  const contactOf = (ws: string, phoneNumber: string) => resolveContact(tdb.db, ws, { phoneNumber, userId: null }, { at: new Date() });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    ops.owner = await seedOperator(deps, { role: 'owner' });
    for (const role of ['admin', 'developer', 'viewer'] as const) ops[role] = await seedOperator(deps, { workspace: ops.owner.workspaceSlug, role });
    otherOwner = await seedOperator(deps, { role: 'owner' });
    const ws = ops.owner.workspaceId;

    let t = Date.parse('2025-06-18T16:00:00Z');
    for (const name of FIXTURES) envelopeIds.push(await storeAndApply(tdb.db, ws, fixture(name), new Date((t += 1000))));
    sheena = await contactOf(ws, PHONE);
    const conv = await ensureConversation(tdb.db, ws, sheena.id);
    await insertMessage(tdb.db, ws, {
      conversationId: conv.id,
      contactId: sheena.id,
      direction: 'outbound',
      providerMessageId: OUTBOUND_ID,
      type: 'text',
      body: 'Your parcel is on its way',
      sentAt: new Date('2025-06-18T16:23:19Z'),
    });
    const actor = (await authenticate(deps, ops.owner.token))!;
    const caller = createCaller({ deps, actor, requestId: 'test' });
    await caller.contacts.update({ id: sheena.id, email: 'sheena@example.test', externalReferenceId: 'crm-4242', locale: 'en_US' });

    await storeAndApply(
      tdb.db,
      ws,
      inboundText({ id: 'wamid.marco-1', from: '393471234567', name: 'Marco Rossi', body: 'Vorrei un rimborso', at: '2025-06-18T17:00:00Z' }),
    );
    marco = await contactOf(ws, '+393471234567');
    // The same person writing to another workspace: that workspace's data is not ours to erase.
    for (const name of FIXTURES) await storeAndApply(tdb.db, otherOwner.workspaceId, fixture(name));
  });
  afterAll(async () => {
    await cp?.close();
    await tdb?.drop();
  });

  const url = (id: string) => `${cp.url}/api/contacts/${id}/gdpr`;

  it('401 without a session; 403 for developer and viewer on both routes; 404 across workspaces', async () => {
    for (const method of ['GET', 'DELETE']) {
      expect(await jsonRequest(url(sheena.id), { method })).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
      for (const role of ['developer', 'viewer'] as const) {
        expect(await jsonRequest(url(sheena.id), { method, headers: bearer(ops[role].token) })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      }
      expect(await jsonRequest(url(sheena.id), { method, headers: bearer(otherOwner.token) })).toMatchObject({ status: 404, body: { error: 'not_found' } });
      expect(await jsonRequest(url('ctr_missing'), { method, headers: bearer(ops.owner.token) })).toMatchObject({ status: 404 });
    }
  });

  it('export: a versioned document with everything stored about the contact', async () => {
    const res = await jsonRequest(url(sheena.id), { headers: bearer(ops.admin.token) });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.version).toBe(3);
    expect(Date.parse(doc.exportedAt)).not.toBeNaN();
    expect(doc.contact).toMatchObject({
      id: sheena.id,
      phoneNumber: PHONE,
      name: 'Sheena Nelson',
      profileName: 'Sheena Nelson',
      email: 'sheena@example.test',
      externalReferenceId: 'crm-4242',
      locale: 'en_US',
      subscriberStatus: 'subscribed',
      anonymizedAt: null,
    });
    expect(doc.conversations).toHaveLength(1);
    expect(doc.conversations[0].providerWindows).toEqual([
      expect.objectContaining({ providerConversationId: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4', originType: 'utility', pricingModel: 'PMP', billable: true }),
    ]);
    expect(doc.messages.map((m: { type: string; direction: string }) => `${m.direction}:${m.type}`)).toEqual([
      'inbound:text',
      'inbound:image',
      'inbound:interactive',
      'outbound:text',
    ]);
    expect(doc.messages[1]).toMatchObject({ caption: 'Here is the damaged box', mediaId: '1003383421387256', mediaMimeType: 'image/jpeg' });
    expect(doc.messages[3]).toMatchObject({ status: 'read', errorCode: 131047 });
    // Oldest first: the fixture's failure (:05) precedes its read (:30).
    expect(doc.deliveryHistory.map((h: { status: string }) => h.status)).toEqual(['sent', 'delivered', 'failed', 'read']);
    expect(doc.deliveryHistory[2]).toMatchObject({ errorCode: 131047, errorTitle: 'Re-engagement message' });
    expect(doc.webhookEvents.map((e: { id: string }) => e.id)).toEqual(envelopeIds);
    // Nothing of Marco's, nothing of the other workspace.
    expect(JSON.stringify(doc)).not.toMatch(/Marco|rimborso|393471234567/);

    const audit = await listAuditLogs(tdb.db, ops.owner.workspaceId, { limit: 10, action: 'gdpr.export' });
    expect(audit[0]).toMatchObject({
      targetId: sheena.id,
      actorId: ops.admin.memberId,
      details: { version: 3, messages: 4, deliveryHistory: 4, webhookEvents: 7, inboundWebhookRuns: 0 },
    });
  });

  it('tRPC twin contacts.gdprExport returns the same document shape', async () => {
    const deps = testDeps(tdb.db);
    const caller = createCaller({ deps, actor: (await authenticate(deps, ops.owner.token))!, requestId: 't' });
    const doc = await caller.contacts.gdprExport({ id: sheena.id });
    expect(doc.webhookEvents).toHaveLength(7);
    const viewer = createCaller({ deps, actor: (await authenticate(deps, ops.viewer.token))!, requestId: 't' });
    await expect(viewer.contacts.gdprErase({ id: sheena.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  /** Rows of the workspace, in every table, whose text/json/bytes columns contain `needle`. */
  async function findEverywhere(workspaceId: string, needle: string): Promise<string[]> {
    const cols = await tdb.pool.query<{ table_name: string; column_name: string; data_type: string }>(`
      SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
        JOIN information_schema.columns w ON w.table_schema = c.table_schema AND w.table_name = c.table_name AND w.column_name = 'workspace_id'
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = 'public' AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea', 'tsvector', 'ARRAY')`);
    const hits: string[] = [];
    for (const { table_name: t, column_name: col, data_type: type } of cols.rows) {
      const expr = type === 'bytea' ? `encode("${col}", 'escape')` : `"${col}"::text`;
      const res = await tdb.pool.query(`SELECT count(*)::int AS n FROM "${t}" WHERE workspace_id = $1 AND ${expr} ILIKE $2`, [workspaceId, `%${needle}%`]);
      if (res.rows[0].n > 0) hits.push(`${t}.${col}`);
    }
    return hits;
  }

  it('erasure: anonymizes in place and leaves no personal data anywhere in the workspace', async () => {
    const ws = ops.owner.workspaceId;
    for (const needle of PERSONAL) expect((await findEverywhere(ws, needle)).length, needle).toBeGreaterThan(0);
    const count = async (sql: string, id = ws) => (await tdb.pool.query(sql, [id])).rows[0].n as number;
    const before = {
      messages: await count('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1'),
      statuses: await count('SELECT count(*)::int AS n FROM message_statuses WHERE workspace_id = $1'),
      events: await count('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1'),
    };

    const res = await jsonRequest(url(sheena.id), { method: 'DELETE', headers: bearer(ops.owner.token) });
    expect(res).toMatchObject({ status: 200, body: { ok: true, contactId: sheena.id, alreadyErased: false, erased: { messages: 4, webhookEvents: 7 } } });

    for (const needle of PERSONAL) expect(await findEverywhere(ws, needle), needle).toEqual([]);
    // History counts survive; the contact row stays with a token for a phone number.
    expect(await count('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1')).toBe(before.messages);
    expect(await count('SELECT count(*)::int AS n FROM message_statuses WHERE workspace_id = $1')).toBe(before.statuses);
    expect(await count('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1')).toBe(before.events);
    const row = (await tdb.pool.query('SELECT * FROM contacts WHERE id = $1', [sheena.id])).rows[0];
    expect(row.phone_number).toMatch(/^anon_[0-9a-f]{32}$/);
    expect(row).toMatchObject({ name: null, profile_name: null, email: null, external_reference_id: null, subscriber_status: 'subscribed' });
    expect(row.anonymized_at).not.toBeNull();
    const redacted = await tdb.pool.query('SELECT id, raw_body, raw_body_redaction FROM webhook_events WHERE id = ANY($1)', [envelopeIds]);
    expect(redacted.rows.every((r) => r.raw_body === null && r.raw_body_redaction === 'gdpr_erasure')).toBe(true);
    const status = await tdb.pool.query('SELECT status, error_code FROM messages WHERE provider_message_id = $1 AND workspace_id = $2', [OUTBOUND_ID, ws]);
    expect(status.rows[0]).toEqual({ status: 'read', error_code: 131047 });

    // Marco and the other workspace are untouched.
    expect((await findEverywhere(ws, 'Vorrei un rimborso')).sort()).toEqual(['messages.body', 'messages.content', 'webhook_events.raw_body']);
    expect(await findEverywhere(ws, 'rimborso')).toContain('messages.search_vector');
    expect((await findEverywhere(otherOwner.workspaceId, '16505551234')).length).toBeGreaterThan(0);
    expect((await findEverywhere(otherOwner.workspaceId, 'another color')).length).toBeGreaterThan(0);
    expect((await tdb.pool.query('SELECT name FROM contacts WHERE id = $1', [marco.id])).rows[0].name).toBe('Marco Rossi');

    const audit = await listAuditLogs(tdb.db, ws, { limit: 10, action: 'gdpr.erase' });
    expect(audit[0]).toMatchObject({ targetId: sheena.id, actorId: ops.owner.memberId, details: { messages: 4, webhookEvents: 7, alreadyErased: false } });
  });

  it('after erasure: the export is anonymous, a second erasure is harmless, and the phone may return as a new contact', async () => {
    const doc = (await jsonRequest(url(sheena.id), { headers: bearer(ops.owner.token) })).body;
    expect(doc.contact.anonymizedAt).not.toBeNull();
    expect(doc.messages).toHaveLength(4);
    expect(doc.webhookEvents).toEqual([]);
    for (const needle of PERSONAL) expect(JSON.stringify(doc)).not.toContain(needle);

    const again = await jsonRequest(url(sheena.id), { method: 'DELETE', headers: bearer(ops.admin.token) });
    expect(again).toMatchObject({ status: 200, body: { alreadyErased: true, erased: { webhookEvents: 0 } } });

    await storeAndApply(
      tdb.db,
      ops.owner.workspaceId,
      inboundText({ id: 'wamid.back', from: '16505551234', name: 'S N', body: 'hi again', at: '2025-07-01T00:00:00Z' }),
    );
    const fresh = await contactOf(ops.owner.workspaceId, PHONE);
    expect(fresh.id).not.toBe(sheena.id);
  });
});
