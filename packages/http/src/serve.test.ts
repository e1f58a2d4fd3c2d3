import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, loadEnv } from '@mos/config';
import { serve } from './serve';

const log = createLogger({ name: 'serve-test', level: 'silent' });
const signals = ['SIGINT', 'SIGTERM'] as const;
const before = new Map(signals.map((s) => [s, process.listeners(s)]));

// serve() installs shutdown handlers that exit the process: take them off the test worker.
afterEach(() => {
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.off(s, l);
});

async function listeningOn(host: string): Promise<string> {
  const server = serve(express(), { host, port: 0 }, log, 'test', async () => {});
  await new Promise((r) => server.once('listening', r));
  const { address } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return address;
}

describe('serve', () => {
  it('listens on loopback with the default configuration', async () => {
    expect(await listeningOn(loadEnv({ DATABASE_URL: 'postgres://mos@127.0.0.1/mos' }).HOST)).toBe('127.0.0.1');
  });

  it('listens on the configured HOST', async () => {
    expect(await listeningOn(loadEnv({ DATABASE_URL: 'postgres://mos@127.0.0.1/mos', HOST: '0.0.0.0' }).HOST)).toBe('0.0.0.0');
  });
});
