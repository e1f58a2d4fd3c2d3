import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveContact, updateContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen } from '@mos/http/testing';
import { apiContactsResult, type AppDeps } from '@mos/app';
import { testDeps } from '@mos/app/testing';
import { createApiApp } from '../../app';
import { seedApiKey, v1, type SeededKey } from './testing';

type Listed = { contacts: { id: string; phoneNumber: string | null; name: string | null }[]; nextCursor: string | null };

describe('GET /v1/contacts', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededKey;
  let b: SeededKey;
  const phones: string[] = [];
  const ids: Record<string, string> = {};

  const phone = (i: number) => `+3933310${String(i).padStart(5, '0')}`;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    a = await seedApiKey(deps);
    b = await seedApiKey(deps);
    for (let i = 0; i < 7; i++) {
      phones.push(phone(i));
      const c = await resolveContact(tdb.db, a.workspaceId, { phoneNumber: phone(i), userId: null, profileName: `A ${i}` }, { at: new Date(), inbound: true });
      ids[i] = c.id;
    }
    // Equal creation times at microsecond precision: the keyset must order them by id and
    // never repeat or skip one at a page boundary.
    await tdb.pool.query(`UPDATE contacts SET created_at = '2025-01-01T00:00:00.123456Z' WHERE workspace_id = $1 AND phone_number > $2`, [
      a.workspaceId,
      phone(2),
    ]);
    const at = new Date('2025-03-01T00:00:00Z');
    await updateContact(tdb.db, a.workspaceId, ids[1]!, { email: 'Jane.Doe@Example.com', externalReferenceId: 'crm-42' }, at);
    await updateContact(tdb.db, a.workspaceId, ids[2]!, { subscriberStatus: 'unsubscribed' }, at);
    await updateContact(tdb.db, a.workspaceId, ids[3]!, { subscriberStatus: 'blocked' }, new Date('2025-01-01T00:00:00Z'));
    await tdb.pool.query(`UPDATE contacts SET updated_at = '2024-01-01T00:00:00Z' WHERE workspace_id = $1 AND id NOT IN ($2, $3)`, [
      a.workspaceId,
      ids[1],
      ids[2],
    ]);
    // An erased contact is not listed.
    await tdb.pool.query(`UPDATE contacts SET anonymized_at = now(), phone_number = 'anon_x' WHERE id = $1`, [ids[6]]);
    await resolveContact(tdb.db, b.workspaceId, { phoneNumber: phone(0), userId: null, profileName: 'Only in B' }, { at: new Date(), inbound: true });
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const list = async (query: string, key: SeededKey = a) => {
    const res = await v1(api.url, key.key, `/contacts${query}`);
    if (res.status === 200) apiContactsResult.parse(res.body);
    return res;
  };
  const idsOf = (body: Listed) => body.contacts.map((c) => c.id);

  it('lists the spec Contact records in creation order, without erased contacts, each workspace its own', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.contacts).toHaveLength(6);
    // 3-5 were back-dated to one shared instant (ties go by id), then 0-2 as created.
    expect(idsOf(res.body)).toEqual([3, 4, 5, 0, 1, 2].map((i) => ids[i]));
    expect(res.body.contacts[3]).toEqual({
      id: ids[0],
      phoneNumber: phones[0],
      providerUserId: null,
      username: null,
      countryCode: null,
      name: 'A 0',
      email: null,
      externalReferenceId: null,
      subscriberStatus: 'subscribed',
      locale: null,
    });
    expect((await list('', b)).body.contacts.map((c: { name: string }) => c.name)).toEqual(['Only in B']);
  });

  it('filters by phone, email (any case), externalReferenceId, subscriberStatus and updatedSince', async () => {
    expect(idsOf((await list(`?phone=${encodeURIComponent(phone(4))}`)).body)).toEqual([ids[4]]);
    expect(idsOf((await list('?phone=%2B15550000000')).body)).toEqual([]);
    expect(idsOf((await list('?email=jane.doe%40example.com')).body)).toEqual([ids[1]]);
    expect(idsOf((await list('?email=JANE.DOE@EXAMPLE.COM')).body)).toEqual([ids[1]]);
    expect(idsOf((await list('?externalReferenceId=crm-42')).body)).toEqual([ids[1]]);
    expect(idsOf((await list('?externalReferenceId=crm-4')).body)).toEqual([]);
    expect(idsOf((await list('?subscriberStatus=unsubscribed')).body)).toEqual([ids[2]]);
    expect(idsOf((await list('?subscriberStatus=blocked')).body)).toEqual([ids[3]]);
    expect((await list('?subscriberStatus=subscribed')).body.contacts).toHaveLength(4);
    expect(idsOf((await list('?updatedSince=2025-02-01T00:00:00Z')).body).sort()).toEqual([ids[1], ids[2]].sort());
    expect(idsOf((await list('?updatedSince=2025-03-01T01:00:00%2B01:00')).body).sort()).toEqual([ids[1], ids[2]].sort());
    expect(idsOf((await list('?updatedSince=2025-03-01T00:00:00.001Z')).body)).toEqual([]);
    // Filters combine (AND).
    expect(idsOf((await list('?updatedSince=2025-02-01T00:00:00Z&subscriberStatus=subscribed')).body)).toEqual([ids[1]]);
    // Another workspace's number is not found here.
    expect((await list(`?phone=${encodeURIComponent(phone(0))}`, b)).body.contacts.map((c: { name: string }) => c.name)).toEqual(['Only in B']);
  });

  it('pages with limit and nextCursor, across equal creation times, without repeats or gaps', async () => {
    const all = idsOf((await list('?limit=200')).body);
    for (const size of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: Listed } = await list(`?limit=${size}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.contacts.length).toBeLessThanOrEqual(size);
        seen.push(...idsOf(res.body));
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      expect(seen, `limit ${size}`).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / size));
    }
    // A filter and a cursor together.
    const first = await list('?subscriberStatus=subscribed&limit=3');
    expect(first.body.contacts).toHaveLength(3);
    const rest = await list(`?subscriberStatus=subscribed&limit=3&cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ nextCursor: null });
    expect(rest.body.contacts).toHaveLength(1);
  });

  it('400 validation_failed with issues for any bad parameter', async () => {
    const bad = [
      '?limit=0',
      '?limit=201',
      '?limit=abc',
      '?limit=1.5',
      '?limit=-1',
      '?limit=',
      '?phone=3933310000',
      '?phone=+393331000000', // an unencoded + arrives as a space
      '?phone=a&phone=b',
      '?email=%00x@y.z',
      '?externalReferenceId=',
      '?subscriberStatus=gone',
      '?updatedSince=yesterday',
      '?updatedSince=2025-01-01',
      '?updatedSince=2025-13-01T00:00:00Z',
      '?cursor=nope',
      `?cursor=${Buffer.from('2025-01-01T00:00:00.000000Z|ctr_x').toString('base64url')}`,
      '?cursor=%00',
      '?subscriber_status=blocked',
      '?limit[a]=1',
    ];
    for (const q of bad) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toBe('validation_failed');
      expect(res.body.issues, q).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: expect.any(String), path: expect.any(Array), message: expect.any(String) })]),
      );
    }
    expect((await list('?limit=201')).body.issues[0].path).toEqual(['limit']);
    expect((await list('?subscriber_status=blocked')).body.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
  });
});
