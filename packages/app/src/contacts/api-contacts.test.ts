import { describe, expect, it } from 'vitest';
import { apiContactsQuery, decodeContactCursor, encodeContactCursor } from './api-contacts';

describe('GET /v1/contacts query and cursor', () => {
  const keyset = { createdAt: '2025-01-01T00:00:00.123456Z', id: 'ctr_01m83m3nxvswhhnya0g9mskfax' };

  it('round-trips the keyset through an opaque cursor and refuses anything else', () => {
    const cursor = encodeContactCursor(keyset);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeContactCursor(cursor)).toEqual(keyset);
    const forge = (s: string) => Buffer.from(s).toString('base64url');
    for (const bad of [
      '',
      'nope!',
      forge('2025-01-01T00:00:00Z|ctr_01m83m3nxvswhhnya0g9mskfax'),
      forge(`${keyset.createdAt}|ctr_x`),
      forge(`${keyset.createdAt}|${keyset.id}|x`),
    ]) {
      expect(decodeContactCursor(bad), bad).toBeUndefined();
    }
  });

  it('parses query-string values into typed filters', () => {
    expect(
      apiContactsQuery.parse({
        phone: '+393331234567',
        email: ' a@b.test ',
        subscriberStatus: 'blocked',
        updatedSince: '2025-03-01T01:00:00+01:00',
        limit: '200',
        cursor: encodeContactCursor(keyset),
      }),
    ).toEqual({
      phone: '+393331234567',
      email: 'a@b.test',
      subscriberStatus: 'blocked',
      updatedSince: new Date('2025-03-01T00:00:00Z'),
      limit: 200,
      cursor: keyset,
    });
    expect(apiContactsQuery.parse({})).toEqual({});
  });

  it('refuses out-of-range limits, unknown parameters and repeated values', () => {
    for (const q of [{ limit: '0' }, { limit: '201' }, { limit: '1e2' }, { limit: ' 5' }, { foo: '1' }, { phone: ['+393331234567', '+393331234568'] }]) {
      expect(apiContactsQuery.safeParse(q).success, JSON.stringify(q)).toBe(false);
    }
  });
});
