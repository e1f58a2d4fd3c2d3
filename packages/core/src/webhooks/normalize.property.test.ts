import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toE164 } from '../contacts/subscriber';
import { parseProviderEnvelope } from './envelope';
import { EVENT_FAMILIES, type ContactIdentity, type NormalizedEvent } from './events';
import { HANDLED_FIELDS, normalizeEnvelope, summarizeEvent, type NormalizableEnvelope } from './normalize';
import { providerDocsExamples } from './testing/provider-docs-examples';

/**
 * The normalizer is total: whatever a stored delivery holds, it returns events and skips,
 * never throws (a throw would fail the delivery for the wrong reason), and what it returns
 * keeps the families' invariants. Inputs: every fixture (spec and provider-documented) with any one
 * node replaced by arbitrary JSON, arbitrary values under every handled field, and messages
 * of every documented type with arbitrary type objects.
 */
const SPEC = new URL('./fixtures/', import.meta.url);
const files = [
  ...readdirSync(SPEC)
    .filter((f) => f.endsWith('.json'))
    .map((f) => new URL(f, SPEC)),
  ...providerDocsExamples().map((e) => e.url),
];
const fixtures = files.map((url) => JSON.parse(readFileSync(url, 'utf8')) as unknown);
const inboundText = () => JSON.parse(readFileSync(new URL('./fixtures/inbound-text.json', import.meta.url), 'utf8'));

type Path = (string | number)[];
/** Every node's path, leaves and containers alike. */
function nodePaths(v: unknown, path: Path = []): Path[] {
  const here = [path];
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => nodePaths(x, [...path, i]))];
  if (v && typeof v === 'object') return [...here, ...Object.entries(v).flatMap(([k, x]) => nodePaths(x, [...path, k]))];
  return here;
}
function replaceAt(v: unknown, path: Path, node: unknown): unknown {
  if (path.length === 0) return node;
  const [head, ...rest] = path;
  const copy: Record<string | number, unknown> = Array.isArray(v) ? ([...v] as unknown as Record<number, unknown>) : { ...(v as object) };
  copy[head!] = replaceAt(copy[head!], rest, node);
  return copy;
}

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    '99999999999999999999',
    '253402214400',
    '253402214399',
    '8640000000000',
    '-1',
    '1e309',
    'NaN',
    '',
    '\u0000',
    '9'.repeat(400),
    -1,
    1e308,
    8_640_000_000_000,
    Number.MAX_SAFE_INTEGER,
    253402214399,
    '__proto__',
    'constructor',
    'toString',
    '{"a":',
    '[]',
    { __proto__: null },
    { toString: 1 },
    [null],
    { emoji: '' },
  ),
);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const IDENTITY_FAMILIES = new Set([
  'message.inbound',
  'message.reaction',
  'message.edited',
  'message.revoked',
  'message.echo',
  'contact.changed',
  'contact.preferences',
  'conversation.updated',
]);

/** Normalizes, and checks what every caller relies on. */
function normalizeAndCheck(envelope: NormalizableEnvelope): void {
  const out = normalizeEnvelope(envelope);
  expect(JSON.parse(JSON.stringify(out))).toBeTruthy();
  for (const ev of out.events) checkEvent(ev);
}

function checkEvent(ev: NormalizedEvent): void {
  expect(EVENT_FAMILIES).toContain(ev.family);
  const summary = summarizeEvent(ev);
  expect(summary.family).toBe(ev.family);
  expect((summary.detail ?? '').length).toBeLessThanOrEqual(100);
  for (const [key, value] of Object.entries(ev)) {
    if (/At$/.test(key) && value !== null) expect(value, key).toMatch(ISO);
  }
  if (IDENTITY_FAMILIES.has(ev.family)) checkIdentity((ev as { contact: ContactIdentity }).contact);
  if (ev.family === 'message.status') checkIdentity(ev.recipient);
  if (ev.family === 'contact.changed' && ev.newWaId !== null) expect(toE164(ev.newWaId)).toBe(`+${ev.newWaId}`);
}

/** Someone the effects can store: a phone core's toE164 accepts (kept as digits) or a non-blank user id. */
function checkIdentity(who: ContactIdentity): void {
  expect(who.waId !== null || who.userId !== null).toBe(true);
  if (who.waId !== null) expect(toE164(who.waId), who.waId).toBe(`+${who.waId}`);
  if (who.userId !== null) expect(who.userId.trim()).not.toBe('');
}

describe('normalizeEnvelope is total', () => {
  it('any fixture with any one node (leaf, object or array) replaced: no throw, invariants hold', () => {
    const cases = fixtures.flatMap((f) => nodePaths(f).map((p) => [f, p] as const));
    fc.assert(
      fc.property(fc.constantFrom(...cases), hostile, ([fixture, path], node) => {
        const parsed = parseProviderEnvelope(Buffer.from(JSON.stringify(replaceAt(fixture, path, node))));
        if (parsed.ok) normalizeAndCheck(parsed.envelope);
        else expect(parsed.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 4000 },
    );
  });

  it('arbitrary values under every handled field (and unhandled ones): no throw', () => {
    const field = fc.constantFrom(...HANDLED_FIELDS, 'x', '__proto__', 'constructor');
    fc.assert(
      fc.property(fc.array(fc.record({ field, value: fc.jsonValue() }), { maxLength: 4 }), fc.option(hostile), (changes, time) => {
        normalizeAndCheck({ entry: [{ id: '1', time, changes }] });
      }),
      { numRuns: 2000 },
    );
  });

  it('messages, statuses, echoes and preferences of every documented type with arbitrary parts: no throw', () => {
    const types = [
      'text',
      'image',
      'video',
      'audio',
      'document',
      'sticker',
      'location',
      'contacts',
      'interactive',
      'button',
      'order',
      'unsupported',
      'reaction',
      'edit',
      'revoke',
      'system',
      'poll',
    ];
    const part = fc.oneof(fc.jsonValue(), hostile);
    const item = fc.record(
      {
        id: fc.oneof(fc.constant('wamid.X'), part),
        timestamp: fc.oneof(fc.constant('1750000000'), part),
        type: fc.constantFrom(...types),
        from: fc.oneof(fc.constantFrom('16505551234', ''), part),
        from_user_id: part,
        to: part,
        status: fc.oneof(fc.constantFrom('sent', 'read', 'failed', 'played'), part),
        recipient_id: part,
        recipient_user_id: part,
        conversation: part,
        pricing: part,
        errors: part,
        context: part,
        referral: part,
        text: part,
        image: part,
        location: part,
        contacts: part,
        interactive: part,
        button: part,
        order: part,
        reaction: part,
        edit: part,
        revoke: part,
        system: part,
        unsupported: part,
        wa_id: part,
        user_id: part,
        category: part,
        value: part,
      },
      { requiredKeys: ['id', 'timestamp', 'type'] },
    );
    const value = fc.record({
      contacts: part,
      messages: fc.array(item, { maxLength: 3 }),
      statuses: fc.array(item, { maxLength: 3 }),
      message_echoes: fc.array(item, { maxLength: 2 }),
      user_preferences: fc.array(item, { maxLength: 2 }),
      errors: part,
    });
    fc.assert(
      fc.property(fc.constantFrom('messages', 'smb_message_echoes', 'user_preferences'), value, (field, v) => {
        normalizeAndCheck({ entry: [{ id: '1', changes: [{ field, value: v }] }] });
      }),
      { numRuns: 2000 },
    );
  });

  it('the timestamps that used to throw RangeError are unreadable values, not crashes', () => {
    for (const timestamp of ['99999999999999999999', '8640000000000', 8_640_000_000_000]) {
      const inbound = inboundText();
      inbound.entry[0].changes[0].value.messages[0].timestamp = timestamp;
      const out = normalizeEnvelope(inbound);
      expect(out.events).toEqual([]);
      expect(out.skipped).toMatchObject([{ field: 'messages', reason: 'invalid_value' }]);
    }
  });

  it('parseProviderEnvelope never throws on arbitrary bytes or JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
          fc.jsonValue().map((j) => JSON.stringify(j) ?? 'null'),
        ),
        (body) => {
          const parsed = parseProviderEnvelope(body);
          if (!parsed.ok) expect(parsed.issues.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
