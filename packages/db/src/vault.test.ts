import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultSecrets, upsertWorkspace } from './index';
import { createTestDatabase, type TestDatabase } from './testing/index';
import { eq } from 'drizzle-orm';
import { createVault } from './vault';

describe('secret vault', () => {
  let tdb: TestDatabase;
  let ws: string;
  let other: string;
  const key = randomBytes(32);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = (await upsertWorkspace(tdb.db, 'vault-a')).workspace.id;
    other = (await upsertWorkspace(tdb.db, 'vault-b')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('round-trips a secret and stores ciphertext that differs from the plaintext', async () => {
    const vault = createVault(key, { MOS_ENV: 'test' });
    await vault.set(tdb.db, ws, 'provider-access-token', 'EAAG-super-secret-token');
    expect(await vault.get(tdb.db, ws, 'provider-access-token')).toBe('EAAG-super-secret-token');
    const [row] = await tdb.db.select().from(vaultSecrets).where(eq(vaultSecrets.workspaceId, ws));
    expect(row!.ciphertext).not.toContain('EAAG-super-secret-token');
    expect(row!.ciphertext).toMatch(/^v1:/);
    // A fresh IV per write: the same value never encrypts the same way twice.
    await vault.set(tdb.db, ws, 'provider-access-token', 'EAAG-super-secret-token');
    const [again] = await tdb.db.select().from(vaultSecrets).where(eq(vaultSecrets.workspaceId, ws));
    expect(again!.ciphertext).not.toBe(row!.ciphertext);
    expect(await vault.list(tdb.db, ws)).toEqual([{ name: 'provider-access-token', updatedAt: expect.any(Date) }]);
  });

  it('does not decrypt with another master key or when copied to another workspace', async () => {
    const vault = createVault(key, { MOS_ENV: 'test' });
    await vault.set(tdb.db, ws, 'llm-api-key', 'sk-123');
    await expect(createVault(randomBytes(32), { MOS_ENV: 'test' }).get(tdb.db, ws, 'llm-api-key')).rejects.toThrow();
    const [row] = await tdb.db.select().from(vaultSecrets).where(eq(vaultSecrets.name, 'llm-api-key'));
    await tdb.db.insert(vaultSecrets).values({ id: 'sec_copy', workspaceId: other, name: 'llm-api-key', ciphertext: row!.ciphertext });
    await expect(vault.get(tdb.db, other, 'llm-api-key')).rejects.toThrow();
  });

  it('honours environment fallbacks only outside production', async () => {
    const env = { WEBHOOK_SIGNING_SECRET: 'from-env', PROVIDER_WEBHOOK_VERIFY_TOKEN: 'verify-env' };
    expect(await createVault(key, { MOS_ENV: 'development', ...env }).get(tdb.db, other, 'webhook-signing-secret')).toBe('from-env');
    expect(await createVault(key, { MOS_ENV: 'development', ...env }).get(tdb.db, other, 'provider-verify-token')).toBe('verify-env');
    expect(await createVault(key, { MOS_ENV: 'production', ...env }).get(tdb.db, other, 'webhook-signing-secret')).toBeUndefined();
    // A stored secret wins over the environment.
    await createVault(key, { MOS_ENV: 'test' }).set(tdb.db, other, 'webhook-signing-secret', 'from-vault');
    expect(await createVault(key, { MOS_ENV: 'development', ...env }).get(tdb.db, other, 'webhook-signing-secret')).toBe('from-vault');
  });
});
