import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

const DATABASE_URL = 'postgres://mos@127.0.0.1:5432/mos';

describe('HOST', () => {
  it('defaults to loopback, so a dev machine does not expose the apps to its network', () => {
    expect(loadEnv({ DATABASE_URL }).HOST).toBe('127.0.0.1');
  });

  it('is honoured when set, e.g. 0.0.0.0 in a container', () => {
    expect(loadEnv({ DATABASE_URL, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadEnv({ DATABASE_URL, HOST: '::1' }).HOST).toBe('::1');
  });
});
