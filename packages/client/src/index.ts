import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '@mos/trpc';

export type { AppRouter };

export interface MosClientOptions {
  /** The control-plane base URL, e.g. http://localhost:3001 (the client appends /trpc). */
  url: string;
  /** A session token from POST /api/auth/login; omit in browsers that send the cookie. */
  token?: string;
  fetch?: typeof fetch;
}

/** A fully typed client for the control plane's tRPC surface. */
export function createMosClient(options: MosClientOptions): TRPCClient<AppRouter> {
  const base = options.url.replace(/\/+$/, '');
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${base}/trpc`,
        headers: () => (options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}
