import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Env } from './env';

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('MOS_MASTER_KEY must be 32 bytes (64 hex chars or base64)');
  return key;
}

/**
 * The vault key: MOS_MASTER_KEY, or outside production a key generated once and kept in
 * `${MOS_DATA_DIR}/master.key` (mode 0600) so a restarted dev stack can still decrypt.
 */
export function resolveMasterKey(env: Pick<Env, 'MOS_MASTER_KEY' | 'MOS_ENV' | 'MOS_DATA_DIR'>): Buffer {
  if (env.MOS_MASTER_KEY) return decodeKey(env.MOS_MASTER_KEY);
  if (env.MOS_ENV === 'production') throw new Error('MOS_MASTER_KEY is required in production');
  const file = resolve(env.MOS_DATA_DIR, 'master.key');
  if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'));
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
