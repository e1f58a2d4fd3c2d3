/**
 * Open-loop load: signed provider webhooks posted on schedule (never waiting for earlier
 * answers), round-robin over the given ingress URLs. Every delivery is recorded with its
 * answer, so the checks can hold each 200 to a stored, processed row.
 */
import { signProviderBody } from '../../packages/core/src/index';
import { sleep } from '../bench/send-stack';

export interface Delivery {
  i: number;
  /** The provider message id the body carries (wamid). */
  wamid: string;
  kind: 'message' | 'status';
  status: number | 'error';
  /** Why no answer came: the fetch error's name or its cause's code. */
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

export async function postSigned(
  url: string,
  secret: string,
  body: Buffer,
  extraHeaders: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<{ status: number | 'error'; json: Record<string, unknown> | null; error?: string }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signProviderBody(secret, body), ...extraHeaders },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: the check reports the status alone
    }
    return { status: res.status, json };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { status: 'error', json: null, error: e.cause?.code ?? e.name };
  }
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
