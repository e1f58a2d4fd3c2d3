import { Client, Connection } from '@temporalio/client';
import type { TemporalConnectionSettings } from '@mos/config';

export interface LazyTemporalClient {
  /** The connected client; connects on first use and again after a failed attempt. */
  get(): Promise<Client>;
  close(): Promise<void>;
}

/**
 * One Temporal connection per process, opened lazily so a Temporal outage at start-up does
 * not stop the relay from running (it backs off and leaves jobs pending instead). `settings`
 * is `env.temporal` (TLS, API key) in a process; tests may pass just an address and namespace.
 */
export function lazyTemporalClient(settings: TemporalConnectionSettings): LazyTemporalClient {
  const { namespace, ...connectOptions } = settings;
  let pending: Promise<Client> | null = null;
  let connection: Connection | null = null;
  return {
    get() {
      pending ??= Connection.connect({ ...connectOptions, connectTimeout: '5 seconds' }).then(
        (conn) => {
          connection = conn;
          return new Client({ connection: conn, namespace });
        },
        (err: unknown) => {
          pending = null;
          throw err;
        },
      );
      return pending;
    },
    async close() {
      // A connect still in flight is waited for, so the connection it opens is closed too.
      const inFlight = pending;
      pending = null;
      await inFlight?.catch(() => undefined);
      const open = connection;
      connection = null;
      await open?.close();
    },
  };
}
