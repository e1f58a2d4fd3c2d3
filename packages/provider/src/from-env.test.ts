import { describe, expect, it } from 'vitest';
import { ProviderError } from './errors';
import { isProviderNotConfigured, providerClientFromEnv } from './from-env';

const auth = { wabaId: '1', accessToken: 't' };

describe('providerClientFromEnv', () => {
  it('refuses every call non-retryably when no provider is configured', async () => {
    const client = providerClientFromEnv({ PROVIDER_API_VERSION: 'v23.0' });
    for (const call of [() => client.listTemplates(auth), () => client.listAllTemplates(auth), () => client.editTemplate(auth, '9', { components: [] })]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).retryable).toBe(false);
      expect((err as ProviderError).message).toBe('No provider configured (PROVIDER_BASE_URL)');
      expect(isProviderNotConfigured(err)).toBe(true);
    }
  });

  it('talks to PROVIDER_BASE_URL when one is set, and its failures are not "not configured"', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the call fails as unreachable.
    const client = providerClientFromEnv({ PROVIDER_BASE_URL: 'http://127.0.0.1:9', PROVIDER_API_VERSION: 'v23.0' });
    const err = await client.listTemplates(auth).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
    expect(isProviderNotConfigured(err)).toBe(false);
    expect(isProviderNotConfigured(new Error('x'))).toBe(false);
  });
});
