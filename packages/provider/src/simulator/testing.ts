import { readFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyProviderSignature } from '@mos/core';

/** A webhook as our ingress would receive it: exact bytes, headers, whether the signature verified, and the parsed body. */
export interface ReceivedWebhook {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  verified: boolean;
  /** The HTTP status the receiver answered. */
  answered: number;
  body: {
    object: string;
    entry: { id: string; changes: { field: string; value: Record<string, unknown> & { statuses?: StatusEntry[] } }[] }[];
  };
}

export interface StatusEntry {
  id: string;
  status: string;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  conversation?: unknown;
  pricing?: unknown;
  errors?: { code: number; title: string; message: string; error_data: { details: string }; href: string }[];
}

/**
 * A stand-in for mos's webhook ingress: records every request, verifies its signature with the
 * same function the ingress uses, and answers `answer()` (200 unless a test says otherwise).
 */
export async function webhookReceiver(secret: string) {
  const got: ReceivedWebhook[] = [];
  let answer = (): number => 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const status = answer();
      const header = req.headers['x-hub-signature-256'] as string | undefined;
      const verified = verifyProviderSignature({ rawBody: raw, header, secret }).ok;
      got.push({ raw, headers: req.headers, verified, answered: status, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/messaging`,
    got,
    /** Requests answered 2xx only (what mos took in). */
    accepted: () => got.filter((w) => w.answered < 300),
    answerWith(fn: () => number) {
      answer = fn;
    },
    /** Every status entry of every 2xx-answered envelope, in arrival order. */
    statuses(): StatusEntry[] {
      return got.filter((w) => w.answered < 300).flatMap((w) => w.body.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? [])));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * POSTs many JSON bodies over a few kept-alive sockets and returns each answer's status and
 * parsed body, in order: a thousand sends take about a second, where one fetch each is several times slower.
 */
export async function postMany(url: string, token: string, bodies: unknown[], sockets = 32): Promise<{ status: number; json: any }[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const target = new URL(url);
  const one = (body: unknown) =>
    new Promise<{ status: number; json: any }>((resolve, reject) => {
      const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      });
      req.setHeader('authorization', `Bearer ${token}`);
      req.setHeader('content-type', 'application/json');
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  try {
    return await Promise.all(bodies.map(one));
  } finally {
    agent.destroy();
  }
}

/** A webhook fixture mos is tested with (packages/core/src/webhooks/fixtures, the shared provider-webhooks set). */
export const webhookFixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../core/src/webhooks/fixtures/${name}`, import.meta.url), 'utf8'));

/** POSTs a JSON body to a `/_sim/*` control route. */
export async function control(simUrl: string, path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${simUrl}/_sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}
