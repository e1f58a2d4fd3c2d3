import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createApiApp } from '../app';

describe('GET /internal/contacts', () => {
  let tdb: TestDatabase;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededOperator;
  let b: SeededOperator;
  let hidden: SeededOperator;
  let hiddenViewer: SeededOperator;
  const phonesA: string[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    a = await seedOperator(deps, { role: 'developer' });
    b = await seedOperator(deps, { role: 'owner' });
    for (let i = 0; i < 55; i++) {
      const phone = `+3933300${String(i).padStart(5, '0')}`;
      phonesA.push(phone);
      await resolveContact(
        tdb.db,
        a.workspaceId,
        { phoneNumber: phone, userId: null, profileName: `A contact ${i}` },
        { at: new Date(Date.UTC(2025, 0, 1, 0, i)), inbound: true },
      );
    }
    await resolveContact(tdb.db, b.workspaceId, { phoneNumber: '+15550001111', userId: null, profileName: 'Only in B' }, { at: new Date(), inbound: true });
    hidden = await seedOperator(deps, { role: 'owner' });
    hiddenViewer = await seedOperator(deps, { workspace: hidden.workspaceSlug, role: 'viewer' });
    // D/business-scoped-user-ids (docs/provider-reference/webhooks/bsuid_messages_text_username_hidden_number.json).
    await resolveContact(
      tdb.db,
      hidden.workspaceId,
      { phoneNumber: null, userId: 'user.93737...', profileName: 'Sheena Nelson', username: '@realsheenanelson', countryCode: 'US' },
      { at: new Date(1749416383 * 1000), inbound: true },
    );
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const get = (query: string, op: SeededOperator | null = a) => jsonRequest(`${api.url}/internal/contacts${query}`, { headers: op ? bearer(op.token) : {} });

  it('needs a session', async () => {
    expect(await get('', null)).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
  });

  it('defaults to 50 in creation order, with exactly the spec fields', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body.contacts).toHaveLength(50);
    expect(res.body.contacts.map((c: { phoneNumber: string }) => c.phoneNumber)).toEqual(phonesA.slice(0, 50));
    const first = res.body.contacts[0];
    // The spec's fields, plus the provider identity of users who hide their number.
    expect(Object.keys(first).sort()).toEqual([
      'countryCode',
      'email',
      'externalReferenceId',
      'id',
      'locale',
      'name',
      'phoneNumber',
      'providerUserId',
      'subscriberStatus',
      'username',
    ]);
    expect(first).toMatchObject({ name: 'A contact 0', email: null, subscriberStatus: 'subscribed' });
    expect(first.id).toMatch(/^ctr_/);
  });

  it('pages with limit and offset up to the maximum of 200', async () => {
    expect((await get('?limit=2&offset=3')).body.contacts.map((c: { phoneNumber: string }) => c.phoneNumber)).toEqual(phonesA.slice(3, 5));
    expect((await get('?limit=200')).body.contacts).toHaveLength(55);
    expect((await get('?offset=54')).body.contacts).toHaveLength(1);
    expect((await get('?offset=1000')).body.contacts).toEqual([]);
  });

  it('400 invalid_query with a message for out-of-range or malformed values', async () => {
    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?limit=1.5', '?offset=-1', '?offset=x', '?limit=-5']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toBe('invalid_query');
      expect(res.body.message, q).toMatch(/limit|offset/);
    }
  });

  it('shows each workspace only its own contacts', async () => {
    const res = await get('?limit=200', b);
    expect(res.body.contacts.map((c: { name: string }) => c.name)).toEqual(['Only in B']);
    expect((await get('?limit=200')).body.contacts.map((c: { name: string }) => c.name)).not.toContain('Only in B');
  });

  it('a user who hides their number: phoneNumber null, with the user id; viewers see neither id nor username', async () => {
    expect((await get('', hidden)).body.contacts).toEqual([
      expect.objectContaining({ phoneNumber: null, providerUserId: 'user.93737...', username: '@realsheenanelson', countryCode: 'US', name: 'Sheena Nelson' }),
    ]);
    expect((await get('', hiddenViewer)).body.contacts).toEqual([
      expect.objectContaining({ phoneNumber: null, providerUserId: '[redacted]', username: '[redacted]', name: '[redacted]' }),
    ]);
  });
});
