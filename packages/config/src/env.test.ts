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

describe('optional tokens', () => {
  it('an empty MOS_METRICS_TOKEN or MOS_SERVICE_TOKEN (as in mos.env.example) means unset; a short one is refused', () => {
    const env = loadEnv({ DATABASE_URL, MOS_METRICS_TOKEN: '', MOS_SERVICE_TOKEN: '' });
    expect(env.MOS_METRICS_TOKEN).toBeUndefined();
    expect(env.MOS_SERVICE_TOKEN).toBeUndefined();
    expect(() => loadEnv({ DATABASE_URL, MOS_METRICS_TOKEN: 'short' })).toThrow(/MOS_METRICS_TOKEN must be at least 32 characters/);
  });

  it('the production example file parses once its placeholders are filled', async () => {
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(new URL('../../../infra/production/mos.env.example', import.meta.url), 'utf8').split('\n');
    const vars = Object.fromEntries(lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(() => loadEnv({ ...vars, MOS_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') })).not.toThrow();
  });
});

describe('TEMPORAL_UI_URL', () => {
  it('unset or empty: the dev server UI outside production, no link in production', () => {
    for (const MOS_ENV of ['development', 'test', undefined]) {
      expect(loadEnv({ DATABASE_URL, MOS_ENV }).TEMPORAL_UI_URL).toBe('http://127.0.0.1:8233');
      expect(loadEnv({ DATABASE_URL, MOS_ENV, TEMPORAL_UI_URL: '' }).TEMPORAL_UI_URL).toBe('http://127.0.0.1:8233');
    }
    const production = { DATABASE_URL, MOS_ENV: 'production', MOS_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };
    expect(loadEnv(production).TEMPORAL_UI_URL).toBeNull();
    expect(loadEnv({ ...production, TEMPORAL_UI_URL: '' }).TEMPORAL_UI_URL).toBeNull();
  });

  it('is honoured when set, in every environment, without a trailing slash', () => {
    expect(loadEnv({ DATABASE_URL, TEMPORAL_UI_URL: 'http://127.0.0.1:18233/' }).TEMPORAL_UI_URL).toBe('http://127.0.0.1:18233');
    expect(
      loadEnv({
        DATABASE_URL,
        MOS_ENV: 'production',
        MOS_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
        TEMPORAL_UI_URL: 'https://temporal.example.com/ui//',
      }).TEMPORAL_UI_URL,
    ).toBe('https://temporal.example.com/ui');
  });

  it('refuses anything but an http(s) URL', () => {
    for (const bad of ['temporal.internal:8233', 'javascript:alert(1)', 'ftp://temporal.internal']) {
      expect(() => loadEnv({ DATABASE_URL, TEMPORAL_UI_URL: bad }), bad).toThrow(/TEMPORAL_UI_URL must be an http\(s\) URL/);
    }
  });
});
