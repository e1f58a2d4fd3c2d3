import { describe, expect, it } from 'vitest';
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
});
