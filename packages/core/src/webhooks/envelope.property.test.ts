import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileBytes, TRICKY_STRINGS, utf16String } from '../testing/hostile-input';
import { ACCEPTED_ENVELOPE_OBJECTS, parseProviderEnvelope, publicSummary, topicOf } from './envelope';

/**
 * The ingress parses every provider request with parseProviderEnvelope before storing it: any
 * bytes give a typed result, a frame with any extra keys and any change values is accepted, its
 * summary counts what it holds, and a refusal's sentences (stored and logged) quote no value but
 * a cut-down, escaped `object` name.
 */

const marker = fc.string({ minLength: 1, maxLength: 12 }).map((s) => `SECRET<${s}>`);
const extra = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => !['object', 'entry', 'id', 'changes', 'field', 'value'].includes(k)),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);
const messagesValue = fc.record({
  messages: fc.option(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })),
  statuses: fc.option(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })),
  metadata: fc.option(fc.record({ phone_number_id: fc.string(), display_phone_number: fc.string() })),
});
const change = fc
  .tuple(fc.oneof(fc.constant('messages'), fc.string({ minLength: 1 })), fc.oneof(messagesValue, fc.jsonValue({ maxDepth: 3 })), extra)
  .map(([field, value, more]) => ({ ...more, field, value }));
const frame = fc
  .tuple(
    fc.constantFrom(...ACCEPTED_ENVELOPE_OBJECTS),
    fc.array(
      fc.tuple(fc.string({ minLength: 1 }), fc.array(change, { maxLength: 4 }), extra).map(([id, changes, more]) => ({ ...more, id, changes })),
      { maxLength: 4 },
    ),
    extra,
  )
  .map(([object, entry, more]) => ({ ...more, object, entry }));

const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const asRecord = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

describe('parseProviderEnvelope is total', () => {
  it('any bytes (random, JSON, not UTF-8, 25,000 levels deep): ok, or a refusal of at most ten printable sentences', () => {
    fc.assert(
      fc.property(hostileBytes(), (raw) => {
        const parsed = parseProviderEnvelope(raw);
        if (parsed.ok) return;
        expect(['invalid_json', 'invalid_payload']).toContain(parsed.summary.topic);
        expect(parsed.summary).toMatchObject({ entries: 0, changeCount: 0, messageCount: 0, statusCount: 0, accountId: null });
        expect(parsed.issues.length).toBeGreaterThanOrEqual(1);
        expect(parsed.issues.length).toBeLessThanOrEqual(10);
        for (const issue of parsed.issues) expect(issue).toMatch(/^[\x20-\x7e]{1,600}$/);
      }),
      { numRuns: 200 },
    );
  });

  it('a string and its UTF-8 bytes parse alike', () => {
    fc.assert(
      fc.property(fc.oneof(frame, fc.jsonValue({ maxDepth: 3 })), (value) => {
        const text = JSON.stringify(value);
        expect(parseProviderEnvelope(text)).toEqual(parseProviderEnvelope(Buffer.from(text, 'utf8')));
      }),
      { numRuns: 100 },
    );
  });
});

describe('a frame is accepted whatever else it carries, and summarized by what it holds', () => {
  it('any frame with extra keys and any change values: ok, with counts, topic and scope read from it', () => {
    fc.assert(
      fc.property(frame, (envelope) => {
        const parsed = parseProviderEnvelope(JSON.stringify(envelope));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const changes = envelope.entry.flatMap((e) => e.changes);
        const messageValues = changes.filter((c) => c.field === 'messages').map((c) => asRecord(c.value));
        const count = (key: string) => messageValues.reduce((n, v) => n + (isArray(v[key]) ? v[key].length : 0), 0);
        const s = parsed.summary;
        expect(s.entries).toBe(envelope.entry.length);
        expect(s.changeCount).toBe(changes.length);
        expect(s.messageCount).toBe(count('messages'));
        expect(s.statusCount).toBe(count('statuses'));
        expect(s.topic).toBe(topicOf(s));
        expect(s.accountId).toBe(envelope.entry[0]?.id ?? null);
        const phoneIds = messageValues.map((v) => asRecord(v.metadata).phone_number_id).filter((x) => typeof x === 'string');
        expect(s.phoneNumberId).toBe(phoneIds[0] ?? null);
        expect(publicSummary(s)).toEqual({
          object: envelope.object,
          entries: s.entries,
          changeCount: s.changeCount,
          topic: s.topic,
          messageCount: s.messageCount,
          statusCount: s.statusCount,
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('refusals quote no value', () => {
  it('markers in ids, fields, values, keys or a wrong-typed frame part never appear in an issue', () => {
    const broken = fc
      .tuple(frame, marker, fc.nat(), fc.constantFrom('object', 'entry', 'id', 'changes', 'field', 'value', 'item'))
      .map(([envelope, m, at, where]) => {
        const e = JSON.parse(JSON.stringify(envelope)) as Record<string, unknown> & { entry: Record<string, unknown>[] };
        const entry = e.entry[at % Math.max(1, e.entry.length)];
        const changes = entry?.changes as Record<string, unknown>[] | undefined;
        const c = changes?.[at % Math.max(1, changes.length)];
        if (where === 'object') e.object = { [m]: m };
        else if (where === 'entry') e.entry = m as never;
        else if (where === 'id' && entry) entry.id = [m];
        else if (where === 'changes' && entry) entry.changes = { [m]: m } as never;
        else if (where === 'field' && c) c.field = { name: m };
        else if (where === 'value' && c) c.value = m;
        else e.entry.push(m as never);
        return { e, m };
      });
    fc.assert(
      fc.property(broken, ({ e, m }) => {
        const parsed = parseProviderEnvelope(JSON.stringify(e));
        const issues = parsed.ok ? [] : parsed.issues.join('\n');
        expect(issues).not.toContain(m);
        expect(issues).not.toContain('SECRET<');
      }),
      { numRuns: 300 },
    );
  });

  it('an unknown object name is quoted cut to 40 characters, printable ASCII only', () => {
    fc.assert(
      fc.property(fc.oneof(utf16String({ maxLength: 200 }), fc.constantFrom(...TRICKY_STRINGS)), (name) => {
        fc.pre(!(ACCEPTED_ENVELOPE_OBJECTS as readonly string[]).includes(name));
        const parsed = parseProviderEnvelope(JSON.stringify({ object: name, entry: [] }));
        expect(parsed.ok).toBe(false);
        if (parsed.ok) return;
        expect(parsed.summary.object).toBe(name);
        const quoted = /^the envelope's object is "((?:[^"\\]|\\.)*)"( \(truncated\))?;/.exec(parsed.issues[0]!);
        expect(quoted).not.toBeNull();
        const shown = quoted![1]!.replace(/\\u\{[0-9a-f]+\}|\\./g, '.');
        expect(shown.length).toBe(Math.min(40, Array.from(name).length));
        expect(quoted![2] !== undefined).toBe(Array.from(name).length > 40);
      }),
      { numRuns: 200 },
    );
  });
});
