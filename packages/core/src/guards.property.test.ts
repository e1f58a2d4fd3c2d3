import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCompatTopic, readCompatSummary } from './compat/events';
import { isDeliveryStatus } from './contacts/subscriber';
import { isRole, ROLES } from './roles';
import { isSecretName, SECRET_NAMES } from './secret-names';
import { hostileString, hostileValue } from './testing/hostile-input';
import { isWorkspaceSlug } from './workspace-slug';

/**
 * The small guards on names that arrive in paths, query strings and stored jsonb: each is a
 * total predicate that accepts exactly its own vocabulary, whatever else it is handed.
 */

describe('name guards', () => {
  it('isSecretName, isRole, isDeliveryStatus and isCompatTopic accept exactly their lists, for any value', () => {
    const lists: [(v: unknown) => boolean, readonly string[]][] = [
      [isSecretName, SECRET_NAMES],
      [isRole, ROLES],
      [isDeliveryStatus, ['sent', 'delivered', 'read', 'played', 'failed']],
      [isCompatTopic, ['contact_upsert', 'journey_trigger', 'partner_event']],
    ];
    const near = fc
      .constantFrom(...lists.flatMap(([, l]) => l))
      .chain((s) => fc.constantFrom(s, s.toUpperCase(), ` ${s}`, `${s}\u0000`, s.slice(1), new String(s)));
    fc.assert(
      fc.property(fc.oneof(near, hostileValue()), (v) => {
        for (const [guard, list] of lists) expect(guard(v)).toBe(typeof v === 'string' && list.includes(v));
      }),
      { numRuns: 300 },
    );
  });

  it('isWorkspaceSlug: 1-64 of a-z, 0-9 and inner dashes, for any string', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString(), fc.stringMatching(/^[a-z0-9-]{0,66}$/)), (s) => {
        const expected = s.length >= 1 && s.length <= 64 && /^[a-z0-9-]+$/.test(s) && !s.startsWith('-') && !s.endsWith('-');
        expect(isWorkspaceSlug(s)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('readCompatSummary reads any stored jsonb: null, or a summary of strings and nulls', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileValue(),
          fc.record({
            compat: fc.constantFrom('contact_upsert', 'x'),
            route: fc.oneof(fc.string(), hostileValue()),
            rootEventId: fc.oneof(fc.string(), hostileValue()),
            journeyId: hostileValue(),
          }),
        ),
        (v) => {
          const s = readCompatSummary(v);
          if (s === null) return;
          expect(isCompatTopic(s.compat)).toBe(true);
          for (const k of ['mappingId', 'journeyId', 'contactId', 'eventName', 'triggerKey'] as const)
            expect(s[k] === null || typeof s[k] === 'string').toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
