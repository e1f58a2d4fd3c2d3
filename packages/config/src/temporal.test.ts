import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from './env';
import { describeTemporal, resolveTemporalConnection, TEMPORAL_DEFAULTS } from './temporal';

/** Environment -> Temporal connection options, as @temporalio/envconfig resolves them. Pure: no server. */
const dir = mkdtempSync(join(tmpdir(), 'mos-temporal-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const API_KEY = 'tmprl-test-api-key-0123456789abcdef';

describe('resolveTemporalConnection', () => {
  it('nothing set: the local dev server, default namespace, plaintext, no key', () => {
    expect(resolveTemporalConnection({})).toEqual({ address: '127.0.0.1:7233', namespace: 'default' });
    expect(TEMPORAL_DEFAULTS).toEqual({ address: '127.0.0.1:7233', namespace: 'default' });
  });

  it('address and namespace from TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE', () => {
    expect(resolveTemporalConnection({ TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_NAMESPACE: 'mos' })).toEqual({
      address: 'temporal.internal:7233',
      namespace: 'mos',
    });
  });

  it('an API key (Temporal Cloud) is passed on and turns TLS on, as envconfig does; TEMPORAL_TLS=false still wins', () => {
    const cloud = resolveTemporalConnection({ TEMPORAL_ADDRESS: 'mos.a1b2c.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'mos.a1b2c', TEMPORAL_API_KEY: API_KEY });
    expect(cloud).toEqual({ address: 'mos.a1b2c.tmprl.cloud:7233', namespace: 'mos.a1b2c', apiKey: API_KEY, tls: true });
    expect(resolveTemporalConnection({ TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS: 'false' }).tls).toBe(false);
    expect(resolveTemporalConnection({ TEMPORAL_TLS: 'true' }).tls).toEqual({});
  });

  it('empty values, as an env file leaves them, are unset: an empty key does not turn TLS on', () => {
    const settings = resolveTemporalConnection({ TEMPORAL_API_KEY: '', TEMPORAL_TLS: '', TEMPORAL_TLS_CLIENT_CERT_PATH: '', TEMPORAL_NAMESPACE: '' });
    expect(settings).toEqual({ address: '127.0.0.1:7233', namespace: 'default' });
  });

  it('mTLS: the certificate, key and CA are read from their TEMPORAL_TLS_*_PATH files; the server name overrides SNI', () => {
    const settings = resolveTemporalConnection({
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: file('client.pem', 'CLIENT CERT'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: file('client.key', 'CLIENT KEY'),
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: file('ca.pem', 'SERVER CA'),
      TEMPORAL_TLS_SERVER_NAME: 'temporal-frontend',
    });
    const tls = settings.tls as { clientCertPair: { crt: Uint8Array; key: Uint8Array }; serverRootCACertificate: Uint8Array; serverNameOverride: string };
    expect(Buffer.from(tls.clientCertPair.crt).toString()).toBe('CLIENT CERT');
    expect(Buffer.from(tls.clientCertPair.key).toString()).toBe('CLIENT KEY');
    expect(Buffer.from(tls.serverRootCACertificate).toString()).toBe('SERVER CA');
    expect(tls.serverNameOverride).toBe('temporal-frontend');
    expect(settings.apiKey).toBeUndefined();
    expect(describeTemporal(settings)).toEqual({ address: 'temporal.internal:7233', namespace: 'default', tls: 'mtls', auth: 'client-certificate' });
  });

  it('a missing certificate file, or a certificate without its key, is an error naming the variable', () => {
    expect(() => resolveTemporalConnection({ TEMPORAL_TLS_CLIENT_CERT_PATH: join(dir, 'nope.pem'), TEMPORAL_TLS_CLIENT_KEY_PATH: file('k', 'K') })).toThrow(
      /TEMPORAL_TLS_CLIENT_CERT_PATH: no such file: .*nope\.pem/,
    );
    expect(() => resolveTemporalConnection({ TEMPORAL_TLS_CLIENT_CERT_PATH: file('c', 'C') })).toThrow(/needs both the certificate and its key/);
    expect(() => resolveTemporalConnection({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca-missing.pem') })).toThrow(
      /TEMPORAL_TLS_SERVER_CA_CERT_PATH: no such file/,
    );
  });

  it('a TOML profile is read only when TEMPORAL_CONFIG_FILE or TEMPORAL_PROFILE names it; variables override it', () => {
    const toml = file(
      'temporal.toml',
      [
        '[profile.default]',
        'address = "file-default:7233"',
        'namespace = "from-file"',
        '',
        '[profile.cloud]',
        'address = "cloud:7233"',
        `api_key = "${API_KEY}"`,
      ].join('\n'),
    );
    expect(resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: toml })).toEqual({ address: 'file-default:7233', namespace: 'from-file' });
    expect(resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_NAMESPACE: 'env-wins' }).namespace).toBe('env-wins');
    expect(resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'cloud' })).toEqual({
      address: 'cloud:7233',
      namespace: 'default',
      apiKey: API_KEY,
      tls: true,
    });
    expect(() => resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging' })).toThrow(/Profile 'staging' not found/);
    expect(() => resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: join(dir, 'absent.toml') })).toThrow(/TEMPORAL_CONFIG_FILE: no such file/);
    // A developer's own CLI profile in the default place is not picked up unasked...
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'temporalio'), { recursive: true });
    writeFileSync(join(home, '.config', 'temporalio', 'temporal.toml'), '[profile.default]\naddress = "developer-cloud:7233"\n');
    expect(resolveTemporalConnection({ HOME: home }).address).toBe('127.0.0.1:7233');
    // ...but is when TEMPORAL_PROFILE asks for one of its profiles.
    expect(resolveTemporalConnection({ HOME: home, TEMPORAL_PROFILE: 'default' }).address).toBe('developer-cloud:7233');
  });

  it('describeTemporal never carries the API key', () => {
    const settings = resolveTemporalConnection({ TEMPORAL_API_KEY: API_KEY, TEMPORAL_ADDRESS: 'cloud:7233' });
    const described = describeTemporal(settings);
    expect(described).toEqual({ address: 'cloud:7233', namespace: 'default', tls: 'on', auth: 'api-key' });
    expect(JSON.stringify(described)).not.toContain(API_KEY);
  });
});

describe('loadEnv: Temporal', () => {
  const DATABASE_URL = 'postgres://mos@127.0.0.1:5432/mos';

  it('resolves env.temporal, and TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE as it connects', () => {
    const env = loadEnv({ DATABASE_URL, TEMPORAL_NAMESPACE: 'mos', TEMPORAL_API_KEY: API_KEY, TEMPORAL_ADDRESS: 'cloud:7233' });
    expect(env.temporal).toEqual({ address: 'cloud:7233', namespace: 'mos', apiKey: API_KEY, tls: true });
    expect([env.TEMPORAL_ADDRESS, env.TEMPORAL_NAMESPACE]).toEqual(['cloud:7233', 'mos']);
    expect(loadEnv({ DATABASE_URL }).temporal).toEqual({ address: '127.0.0.1:7233', namespace: 'default' });
  });

  it('refuses what envconfig would silently misread, and a missing certificate, with every problem listed', () => {
    expect(() => loadEnv({ DATABASE_URL, TEMPORAL_TLS: 'yes' })).toThrow(/TEMPORAL_TLS: TEMPORAL_TLS must be true, false, 1 or 0/);
    expect(() =>
      loadEnv({ DATABASE_URL, TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem', TEMPORAL_TLS_CLIENT_KEY_PATH: '/nonexistent/client.key' }),
    ).toThrow(
      /^invalid configuration:\n {2}TEMPORAL_TLS_CLIENT_CERT_PATH: no such file: \/nonexistent\/client\.pem\n {2}TEMPORAL_TLS_CLIENT_KEY_PATH: no such file/,
    );
  });

  it('RATE_LIMIT_STORE: memory unless postgres is asked for', () => {
    expect(loadEnv({ DATABASE_URL }).RATE_LIMIT_STORE).toBe('memory');
    expect(loadEnv({ DATABASE_URL, RATE_LIMIT_STORE: 'postgres' }).RATE_LIMIT_STORE).toBe('postgres');
    expect(() => loadEnv({ DATABASE_URL, RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE/);
  });
});
