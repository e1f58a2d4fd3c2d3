import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { journeyStepSchema, journeyTriggerSchema, MAX_JOURNEY_STEPS, validateJourneySteps, type JourneyStep } from './definition';
import { lookupPersonalization } from './personalize';

/**
 * Journey definitions come from operators' requests: any value goes through the step and
 * trigger schemas without a throw, what they accept carries no NUL, and any list of accepted
 * steps is judged by validateJourneySteps without a throw. Personalization reads only own data.
 */

const stepLike = fc.record(
  {
    id: fc.oneof(fc.stringMatching(/^[a-c]$/), hostileString()),
    type: fc.oneof(fc.constantFrom('send_template', 'wait', 'branch_on_reply', 'branch_on_property', 'exit'), hostileString()),
    next: fc.oneof(fc.stringMatching(/^[a-c]$/), hostileValue()),
    seconds: fc.oneof(fc.integer({ min: -5, max: 10_000_000 }), hostileValue()),
    withinSeconds: fc.integer({ min: 0, max: 100 }),
    onReply: fc.stringMatching(/^[a-c]$/),
    onNoReply: fc.stringMatching(/^[a-c]$/),
    onTrue: fc.stringMatching(/^[a-c]$/),
    onFalse: fc.stringMatching(/^[a-c]$/),
    property: fc.oneof(fc.constantFrom('name', 'plan.tier'), hostileString()),
    operator: fc.constantFrom('equals', 'exists', 'contains', 'bogus'),
    value: fc.oneof(fc.string(), hostileValue()),
    template: fc.record({ name: fc.constantFrom('welcome', 'Bad'), language: fc.constantFrom('en', 'x') }),
  },
  { requiredKeys: ['id', 'type'] },
);

/** Steps the schema accepts, so walkable lists (and cycles among them) are drawn as often as refusals. */
const target = fc.stringMatching(/^[a-c]$/);
const validStep = fc.oneof(
  fc.record({ id: target, type: fc.constant('wait'), seconds: fc.integer({ min: 1, max: 100 }), next: target }, { requiredKeys: ['id', 'type', 'seconds'] }),
  fc.record({ id: target, type: fc.constant('branch_on_reply'), withinSeconds: fc.integer({ min: 1, max: 100 }), onReply: target, onNoReply: target }),
  fc.record({ id: target, type: fc.constant('exit') }),
);

describe('journey definitions from outside', () => {
  it('any value through the step and trigger schemas: no throw, no NUL accepted; accepted step lists validate without a throw', () => {
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(fc.oneof(validStep, stepLike, hostileValue()), { maxLength: 6 }),
        hostileValue(),
        fc.record(
          {
            type: fc.constantFrom('api', 'partner_event', 'inbound_message', 'schedule'),
            eventName: hostileString(),
            keyword: hostileString(),
            cron: fc.oneof(fc.constant('0 9 * * 1'), hostileString()),
          },
          { requiredKeys: ['type'] },
        ),
        (steps, anyTrigger, trigger) => {
          const parsed = steps.map((s) => journeyStepSchema.safeParse(s));
          const accepted = parsed.flatMap((p) => (p.success ? [p.data] : []));
          for (const t of [anyTrigger, trigger]) {
            const r = journeyTriggerSchema.safeParse(t);
            if (r.success) expect(JSON.stringify(r.data)).not.toContain('\\u0000');
          }
          for (const s of accepted) expect(JSON.stringify(s)).not.toContain('\\u0000');
          const issues = validateJourneySteps(accepted);
          outcomes.add(accepted.length > 0 && issues.length === 0 ? 'walkable' : 'refused');
          for (const i of issues) expect(i.path).toMatch(/^steps(\.\d+(\.id)?)?$/);
        },
      ),
      { numRuns: 100 },
    );
    expect([...outcomes].sort()).toEqual(['refused', 'walkable']);
  });

  it('a long chain of steps is judged without exhausting the stack', () => {
    const chain = (n: number): JourneyStep[] => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, type: 'wait', seconds: 1 }));
    expect(validateJourneySteps(chain(MAX_JOURNEY_STEPS))).toEqual([]);
    expect(validateJourneySteps(chain(20_000))).toEqual([{ path: 'steps', message: `at most ${MAX_JOURNEY_STEPS} steps` }]);
  });

  it('personalization reads own keys only: inherited names are absent on any context', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
        fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty', 'contact.toString', 'a.constructor', 'contact.__proto__'),
        (trigger, key) => {
          fc.pre(!Object.keys(trigger).some((k) => key.split('.').includes(k)));
          expect(lookupPersonalization({ trigger, contact: {} }, key)).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});
