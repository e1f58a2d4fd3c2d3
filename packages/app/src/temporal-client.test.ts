import { describe, expect, it } from 'vitest';
import { loadEnv } from '@mos/config';
import { lazyTemporalClient } from './temporal-client';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const systemInfo = (client: Awaited<ReturnType<ReturnType<typeof lazyTemporalClient>['get']>>) => client.workflowService.getSystemInfo({});

describe('lazyTemporalClient (real Temporal dev server)', () => {
  it('connects once on first use and shares the client', async () => {
    const temporal = lazyTemporalClient({ address, namespace: 'default' });
    const [a, b] = await Promise.all([temporal.get(), temporal.get()]);
    expect(a).toBe(b);
    await expect(systemInfo(a)).resolves.toBeDefined();
    await temporal.close();
    await expect(systemInfo(a)).rejects.toThrow();
  });

  it('close() during a connect in flight closes the connection that connect opens', async () => {
    const temporal = lazyTemporalClient({ address, namespace: 'default' });
    const connecting = temporal.get();
    await temporal.close();
    const client = await connecting;
    await expect(systemInfo(client)).rejects.toThrow();
  });

  it('reconnects after a close', async () => {
    const temporal = lazyTemporalClient({ address, namespace: 'default' });
    const first = await temporal.get();
    await temporal.close();
    const second = await temporal.get();
    expect(second).not.toBe(first);
    await expect(systemInfo(second)).resolves.toBeDefined();
    await temporal.close();
  });

  it("opens with the process's env.temporal: the namespace the environment names, plaintext without a key", async () => {
    const env = loadEnv({ ...process.env, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', TEMPORAL_API_KEY: '' });
    const temporal = lazyTemporalClient(env.temporal);
    try {
      const client = await temporal.get();
      expect(client.options.namespace).toBe('default');
      await expect(systemInfo(client)).resolves.toBeDefined();
    } finally {
      await temporal.close();
    }
  });

  it('an API key turns TLS on: the plaintext dev server is refused within the connect timeout, and the next get() tries again', async () => {
    const env = loadEnv({ ...process.env, TEMPORAL_ADDRESS: address, TEMPORAL_API_KEY: 'tmprl-test-key-not-a-real-one' });
    expect(env.temporal).toMatchObject({ tls: true, apiKey: 'tmprl-test-key-not-a-real-one' });
    const temporal = lazyTemporalClient(env.temporal);
    const started = Date.now();
    await expect(temporal.get()).rejects.toThrow(/Failed to connect before the deadline/);
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(temporal.get()).rejects.toThrow();
    await temporal.close();
  }, 30_000);
});
