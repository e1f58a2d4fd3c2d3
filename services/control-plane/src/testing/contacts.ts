import { readFileSync } from 'node:fs';
import { normalizeEnvelope, type NormalizableEnvelope, type NormalizedEvent } from '@mos/core';
import { createLogger } from '@mos/config';
import type { Db } from '@mos/db';
import { storeTestWebhook } from '@mos/db/testing';
import { applyFamily, composeEffects, createContactEffects } from '@mos/workflows';

/**
 * Seeds contact data the way production gets it: the stored envelope row (as the ingress
 * writes it) and the effects of its families (as the worker applies them).
 */

const FIXTURES = new URL('../../../../packages/core/src/webhooks/fixtures/', import.meta.url);
export type Envelope = NormalizableEnvelope & { entry: { changes: { value: any }[] }[] };
export const fixture = (name: string): Envelope => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));

const unix = (iso: string) => String(Date.parse(iso) / 1000);

/** An inbound text envelope from `from` (digits) named `name`. */
export function inboundText(input: { id: string; from: string; name: string; body: string; at: string }): Envelope {
  const env = fixture('inbound-text');
  const value = env.entry[0]!.changes[0]!.value;
  value.contacts = [{ profile: { name: input.name }, wa_id: input.from }];
  value.messages = [{ from: input.from, id: input.id, timestamp: unix(input.at), type: 'text', text: { body: input.body } }];
  return env;
}

const effects = composeEffects(createContactEffects({ log: createLogger({ name: 'seed', level: 'silent' }) }));

/**
 * Applies families built by a test (typed by core's events.ts) as the worker applies them
 * after normalizing: for shapes the stored fixtures do not cover (hidden numbers, reactions,
 * edits), without depending on the normalizer.
 */
export async function applyFamilies(db: Db, workspaceId: string, ...families: NormalizedEvent[]): Promise<void> {
  for (const family of families) await applyFamily(effects, db, workspaceId, family);
}

export async function storeAndApply(db: Db, workspaceId: string, envelope: Envelope, receivedAt = new Date()): Promise<string> {
  const id = await storeTestWebhook(db, workspaceId, {
    body: envelope,
    normalizationStatus: 'processed',
    headers: { 'content-type': 'application/json' },
    receivedAt,
  });
  await applyFamilies(db, workspaceId, ...normalizeEnvelope(envelope).events);
  return id;
}
