import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditLogs } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { fixedClock, seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { fixture, inboundText, storeAndApply } from './testing/contacts';

describe('contacts.list / contacts.get / contacts.update (tRPC)', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let developer: SeededOperator;
  let other: SeededOperator;
  const clock = fixedClock(new Date('2025-06-18T18:00:00Z'));
  const as = async (op: SeededOperator) => createCaller({ deps, actor: (await authenticate(deps, op.token))!, requestId: 't' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { clock });
    clock.set(new Date());
    owner = await seedOperator(deps, { role: 'owner' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    developer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'developer' });
    other = await seedOperator(deps, { role: 'owner' });
    clock.set(new Date('2025-06-18T18:00:00Z'));
    for (const name of ['inbound-text', 'inbound-image', 'status-sent']) await storeAndApply(tdb.db, owner.workspaceId, fixture(name));
    const people = [
      ['393331110001', 'Marco Rossi'],
      ['393331110002', 'Giulia Bianchi'],
      ['447700900003', 'Oliver Smith'],
    ] as const;
    for (const [i, [from, name]] of people.entries()) {
      await storeAndApply(tdb.db, owner.workspaceId, inboundText({ id: `wamid.p${i}`, from, name, body: `hello ${i}`, at: `2025-06-18T1${i}:00:00Z` }));
    }
    await storeAndApply(
      tdb.db,
      other.workspaceId,
      inboundText({ id: 'wamid.x', from: '393331110009', name: 'Marco Elsewhere', body: 'x', at: '2025-06-18T10:00:00Z' }),
    );
  });
  afterAll(async () => tdb?.drop());

  it('lists with search by name, phone and email, and cursor pages', async () => {
    const c = await as(developer);
    const all = await c.contacts.list({});
    expect(all.contacts.map((x) => x.name)).toEqual(['Sheena Nelson', 'Marco Rossi', 'Giulia Bianchi', 'Oliver Smith']);
    expect(all.nextCursor).toBeNull();
    expect((await c.contacts.list({ search: 'marco' })).contacts.map((x) => x.name)).toEqual(['Marco Rossi']);
    expect((await c.contacts.list({ search: '+39 333 111' })).contacts.map((x) => x.name)).toEqual(['Marco Rossi', 'Giulia Bianchi']);
    expect((await c.contacts.list({ search: '4477009' })).contacts.map((x) => x.name)).toEqual(['Oliver Smith']);
    expect((await c.contacts.list({ search: '%' })).contacts).toEqual([]);

    const p1 = await c.contacts.list({ limit: 3 });
    expect(p1.contacts).toHaveLength(3);
    const p2 = await c.contacts.list({ limit: 3, cursor: p1.nextCursor! });
    expect(p2).toMatchObject({ nextCursor: null });
    expect(p2.contacts.map((x) => x.name)).toEqual(['Oliver Smith']);
  });

  it('gets a contact with its conversation (window state on the injected clock) and recent messages', async () => {
    const c = await as(developer);
    const [sheena] = (await c.contacts.list({ search: 'Sheena' })).contacts;
    clock.set(new Date((1750090702 + 3600) * 1000));
    const details = await c.contacts.get({ id: sheena!.id });
    expect(details.contact).toMatchObject({ phoneNumber: '+16505551234', profileName: 'Sheena Nelson', anonymized: false });
    expect(details.conversations).toHaveLength(1);
    expect(details.conversations[0]).toMatchObject({ serviceWindowOpen: true, providerConversationId: '6ceb9d929c8e10e4e7a8e7b2a2e04eb4' });
    expect(details.recentMessages.map((m) => m.type)).toEqual(['image', 'text']);
    clock.set(new Date((1750090702 + 86400) * 1000));
    expect((await c.contacts.get({ id: sheena!.id })).conversations[0]!.serviceWindowOpen).toBe(false);
    await expect((await as(other)).contacts.get({ id: sheena!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a viewer gets redacted copies: masked numbers, no names, emails or message content', async () => {
    const c = await as(viewer);
    const all = await c.contacts.list({});
    expect(all.contacts).toHaveLength(4);
    for (const x of all.contacts) {
      expect(x.phoneNumber).toMatch(/^\+\d{2}\*+\d{3}$/);
      expect(x.name === null || x.name === '[redacted]').toBe(true);
      expect(x.profileName === null || x.profileName === '[redacted]').toBe(true);
    }
    const details = await c.contacts.get({ id: all.contacts[0]!.id });
    expect(details.contact.phoneNumber).toMatch(/\*/);
    expect(details.recentMessages.length).toBeGreaterThan(0);
    expect(details.recentMessages.every((m) => m.body === null || m.body === '[redacted]')).toBe(true);
    expect(JSON.stringify(details)).not.toMatch(/hello \d|Sheena|Marco|Giulia|Oliver/);
  });

  it('updates fields with an audit entry naming the fields; viewers may not; other workspaces cannot', async () => {
    const [marco] = (await (await as(owner)).contacts.list({ search: 'Marco Rossi' })).contacts;
    const updated = await (
      await as(owner)
    ).contacts.update({
      id: marco!.id,
      name: 'Marco R.',
      email: 'Marco@Example.test',
      locale: 'it',
      externalReferenceId: 'crm-1',
      subscriberStatus: 'blocked',
    });
    expect(updated).toMatchObject({ name: 'Marco R.', email: 'marco@example.test', locale: 'it', externalReferenceId: 'crm-1', subscriberStatus: 'blocked' });
    const [entry] = await listAuditLogs(tdb.db, owner.workspaceId, { limit: 1, action: 'contact.update' });
    expect(entry).toMatchObject({
      targetId: marco!.id,
      actorId: owner.memberId,
      details: { fields: ['name', 'email', 'locale', 'externalReferenceId', 'subscriberStatus'], subscriberStatus: 'blocked' },
    });
    expect(JSON.stringify(entry!.details)).not.toContain('example.test');

    await expect((await as(viewer)).contacts.update({ id: marco!.id, name: 'nope' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect((await as(other)).contacts.update({ id: marco!.id, name: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect((await as(owner)).contacts.update({ id: marco!.id, email: 'not-an-email' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect((await as(owner)).contacts.update({ id: marco!.id, subscriberStatus: 'gone' as 'blocked' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await (await as(developer)).contacts.get({ id: marco!.id })).contact.name).toBe('Marco R.');
  });
});
