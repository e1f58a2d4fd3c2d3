import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import {
  deleteMember,
  deleteSecret,
  findMemberByEmail,
  getMember,
  getSecretCiphertext,
  getWorkspace,
  insertApiKey,
  listApiKeys,
  listAuditLogs,
  listMembers,
  listSecretNames,
  putSecretCiphertext,
  revokeApiKey,
  revokeMemberSessions,
  revokeSession,
  touchSession,
  updateMemberRole,
  upsertMember,
  upsertWorkspace,
  writeAuditLog,
  createSession,
  findSessionByTokenHash,
} from './index';

/** Every workspace-scoped query function, called with workspace B on workspace A's rows. */
describe('cross-workspace isolation of the foundation query functions', () => {
  let tdb: TestDatabase;
  let a: string;
  let b: string;
  let memberA: string;
  let keyA: string;
  let sessionA: string;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    a = (await upsertWorkspace(tdb.db, 'iso-a')).workspace.id;
    b = (await upsertWorkspace(tdb.db, 'iso-b')).workspace.id;
    memberA = (await upsertMember(tdb.db, a, { email: 'm@a.test', passwordHash: 'h', role: 'owner' })).member.id;
    keyA = (await insertApiKey(tdb.db, a, { name: 'k', prefix: 'p', keyHash: 'hash-a' })).id;
    await putSecretCiphertext(tdb.db, a, 'llm-api-key', 'cipher-a');
    await writeAuditLog(tdb.db, a, { action: 'x', targetId: 't' });
    sessionA = (await createSession(tdb.db, a, { memberId: memberA, tokenHash: 'tok-a', now: new Date() })).id;
  });
  afterAll(async () => tdb?.drop());

  it('reads see nothing of another workspace', async () => {
    expect(await getWorkspace(tdb.db, b)).toMatchObject({ id: b });
    expect(await listMembers(tdb.db, b)).toEqual([]);
    expect(await getMember(tdb.db, b, memberA)).toBeUndefined();
    expect(await findMemberByEmail(tdb.db, b, 'm@a.test')).toBeUndefined();
    expect(await listApiKeys(tdb.db, b)).toEqual([]);
    expect(await getSecretCiphertext(tdb.db, b, 'llm-api-key')).toBeUndefined();
    expect(await listSecretNames(tdb.db, b)).toEqual([]);
    expect(await listAuditLogs(tdb.db, b, { limit: 100 })).toEqual([]);
  });

  it('writes through another workspace touch nothing', async () => {
    expect(await updateMemberRole(tdb.db, b, memberA, 'viewer')).toBeUndefined();
    expect(await deleteMember(tdb.db, b, memberA)).toBe(false);
    expect(await revokeApiKey(tdb.db, b, keyA, new Date())).toBeUndefined();
    expect(await deleteSecret(tdb.db, b, 'llm-api-key')).toBe(false);
    expect(await revokeMemberSessions(tdb.db, b, memberA, new Date())).toBe(0);
    await revokeSession(tdb.db, b, sessionA, new Date());
    await touchSession(tdb.db, b, sessionA, new Date(0));

    expect(await getMember(tdb.db, a, memberA)).toMatchObject({ role: 'owner' });
    expect((await listApiKeys(tdb.db, a))[0]).toMatchObject({ id: keyA, revokedAt: null });
    expect(await getSecretCiphertext(tdb.db, a, 'llm-api-key')).toBe('cipher-a');
    const s = await findSessionByTokenHash(tdb.db, 'tok-a');
    expect(s?.session.revokedAt).toBeNull();
    expect(s?.session.lastSeenAt.getTime()).toBeGreaterThan(0);
  });
});
