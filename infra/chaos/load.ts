/**
 * Open-loop load: signed provider webhooks posted on schedule (never waiting for earlier
 * answers), round-robin over the given ingress URLs. Every delivery is recorded with its
 * answer, so the checks can hold each 200 to a stored, processed row.
 */
import { Agent, request } from 'node:http';
import { signProviderBody } from '../../packages/core/src/index';
import { sleep } from '../bench/send-stack';

export interface Delivery {
  i: number;
  /** The provider message id the body carries (wamid). */
  wamid: string;
  kind: 'message' | 'status';
  status: number | 'error';
  /** Why no answer came: the socket error's code (ECONNREFUSED, ECONNRESET, TIMEOUT...). */
  error?: string;
  webhookEventId?: string;
  duplicate?: boolean;
  ms: number;
  at: number;
}

export interface Load {
  deliveries: Delivery[];
  /** Resolves when the load has ended and every request has its answer. */
  done: Promise<void>;
  stop(): void;
}

const WAMID = /"id":"(wamid\.[^"]+)"/;

/**
 * One keep-alive agent with a bounded socket count: when the ingress falls behind, requests
 * wait in the client's queue (and that wait counts in their latency, measured from the moment
 * each was due) instead of opening thousands of sockets that drown both sides.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 128 });

export function postSigned(
  url: string,
  secret: string,
  body: Buffer,
  extraHeaders: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<{ status: number | 'error'; json: Record<string, unknown> | null; error?: string }> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-hub-signature-256': signProviderBody(secret, body), ...extraHeaders },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let json: Record<string, unknown> | null = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            // not JSON: the check reports the status alone
          }
          resolve({ status: res.statusCode ?? 'error', json });
        });
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 'error', json: null, error: err.code ?? err.name }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 'error', json: null, error: err.code ?? err.name }));
    req.end(body);
  });
}

export function startLoad(o: { urls: string[]; secret: string; rate: number; durationS: number; next: () => Buffer }): Load {
  const deliveries: Delivery[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const t0 = Date.now();
  const total = Math.round(o.rate * o.durationS);
  const fire = (i: number) => {
    const body = o.next();
    const text = body.toString('utf8');
    const d: Delivery = {
      i,
      wamid: WAMID.exec(text)?.[1] ?? '',
      kind: text.includes('"statuses"') ? 'status' : 'message',
      status: 'error',
      ms: 0,
      at: Date.now(),
    };
    deliveries.push(d);
    const p = postSigned(o.urls[i % o.urls.length]!, o.secret, body).then(({ status, json, error }) => {
      d.status = status;
      if (error) d.error = error;
      d.ms = Date.now() - d.at;
      if (status === 200 && json) {
        d.webhookEventId = typeof json.webhookEventId === 'string' ? json.webhookEventId : undefined;
        d.duplicate = json.duplicate === true;
      }
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const done = (async () => {
    let i = 0;
    while (!stopped && i < total) {
      const due = Math.min(total, Math.floor(((Date.now() - t0) / 1000) * o.rate) + 1);
      while (i < due) fire(i++);
      await sleep(5);
    }
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  })();
  return { deliveries, done, stop: () => (stopped = true) };
}
