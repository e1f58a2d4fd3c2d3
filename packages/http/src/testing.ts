import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import { isViewerRequest, recordResponse, registerRequestCredentials } from '@mos/config/testing';

/** Serves an app on an ephemeral port for tests that talk real HTTP. */
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export async function jsonRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  return rawRequest(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Sends exactly these bytes and headers (hostile-input tests); the answer read like jsonRequest's. */
export async function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array },
): Promise<{ status: number; body: any; headers: Headers }> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  // The leak scan (issue 15): credentials this request carries are secrets from now on, and what came back is scanned for them.
  registerRequestCredentials(url, init.headers, init.body);
  const res = await fetch(url, { method, headers: init.headers, body: init.body });
  const text = await res.text();
  recordResponse({
    method,
    url,
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: text,
    ...(isViewerRequest(init.headers) ? { audience: 'viewer' } : {}),
  });
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

export * from './testing/route-discovery';
export * from './testing/hostile-input';
export * from './testing/answer-shape';
export * from './testing/route-fuzz';
export * from './testing/schema-oracle';
export * from './testing/row-counts';
export * from './testing/prometheus';
export * from './testing/trpc-fuzz';
