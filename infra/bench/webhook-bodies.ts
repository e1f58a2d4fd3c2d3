/**
 * Signed-webhook request bodies in the provider's real shape, for the load generators
 * (end-to-end.ts, the soak, infra/chaos): the core fixtures with their customer, message id
 * and times rewritten, so every request is a distinct delivery.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type Mix = 'single' | 'distinct' | 'realistic';
export const MIXES: readonly Mix[] = ['single', 'distinct', 'realistic'];

const fixture = (name: string) => readFileSync(new URL(`../../packages/core/src/webhooks/fixtures/${name}.json`, import.meta.url), 'utf8');
type Json = Record<string, unknown>;
const items = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => !!x && typeof x === 'object') : []);
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

export interface Who {
  phone: string;
  name: string;
  messageId: string;
  conversationId: string;
}

/** The fixture's customer (phone, name), message id and times, rewritten for one conversation. */
export function personalize(template: string, who: Who): Buffer {
  const envelope = JSON.parse(template) as Json;
  const ts = String(Math.floor(Date.now() / 1000));
  for (const entry of items(envelope.entry)) {
    for (const change of items(entry.changes)) {
      const value = obj(change.value);
      if (!value) continue;
      for (const c of items(value.contacts)) {
        c.wa_id = who.phone;
        const profile = obj(c.profile);
        if (profile) profile.name = who.name;
      }
      for (const m of items(value.messages)) Object.assign(m, { from: who.phone, id: who.messageId, timestamp: ts });
      for (const s of items(value.statuses)) {
        Object.assign(s, { recipient_id: who.phone, id: who.messageId, timestamp: ts });
        const conversation = obj(s.conversation);
        if (conversation) conversation.id = who.conversationId;
      }
    }
  }
  return Buffer.from(JSON.stringify(envelope));
}

export interface StreamOptions {
  mix: Mix;
  /** Keeps streams apart (warm-up vs load): the customers' numbers start with it. */
  phonePrefix: string;
  /** realistic: conversations open at once. */
  conversations: number;
  /** single and distinct: the fixture (default inbound-text). */
  fixture?: string;
}

/**
 * A stream of request bodies; the index runs on across calls, so every conversation of a run
 * is distinct.
 * - single: every body is the fixture with its own message id (one customer, one ordering key).
 * - distinct: the fixture with its own customer per body.
 * - realistic: per conversation an inbound text, then `sent`, `delivered`, `read` of our reply,
 *   `conversations` of them interleaved.
 */
export function bodyStream(o: StreamOptions): () => Buffer {
  const tag = randomBytes(3).toString('hex');
  const phone = (c: number) => `${o.phonePrefix}${String(c % 10_000_000).padStart(7, '0')}`;
  let i = 0;
  if (o.mix === 'single') {
    const template = fixture(o.fixture ?? 'inbound-text');
    return () => Buffer.from(template.replace(/"id": "wamid\.[^"]+"/, `"id": "wamid.bench-${tag}-${i++}-${randomBytes(4).toString('hex')}"`));
  }
  if (o.mix === 'distinct') {
    const template = fixture(o.fixture ?? 'inbound-text');
    return () => {
      const c = i++;
      return personalize(template, { phone: phone(c), name: `Bench ${c}`, messageId: `wamid.bench-${tag}-${c}`, conversationId: `bench${tag}${c}` });
    };
  }
  const steps = [fixture('inbound-text'), fixture('status-sent'), fixture('status-delivered'), fixture('status-read')];
  const w = Math.max(1, o.conversations);
  return () => {
    const n = i++;
    const block = Math.floor(n / (steps.length * w));
    const j = n % (steps.length * w);
    const c = block * w + (j % w);
    const step = Math.floor(j / w);
    return personalize(steps[step]!, {
      phone: phone(c),
      name: `Bench ${c}`,
      messageId: step === 0 ? `wamid.bench-${tag}-${c}-in` : `wamid.bench-${tag}-${c}-out`,
      conversationId: `bench${tag}${c}`,
    });
  };
}
