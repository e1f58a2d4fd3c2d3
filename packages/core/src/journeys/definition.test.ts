import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JOURNEY_STATUSES,
  JOURNEY_TRANSITIONS,
  journeyStepSchema,
  journeyTriggerSchema,
  MAX_JOURNEY_STEPS,
  MAX_WAIT_SECONDS,
  stepTargets,
  validateJourneySteps,
  type JourneyStep,
} from './definition';

/** A step, parsed (so every example is a step the API would store). */
const step = (raw: unknown): JourneyStep => journeyStepSchema.parse(raw);
const send = (id: string, next?: string) => step({ id, type: 'send_template', template: { name: 'welcome', language: 'en' }, ...(next ? { next } : {}) });
const wait = (id: string, next?: string) => step({ id, type: 'wait', seconds: 60, ...(next ? { next } : {}) });
const reply = (id: string, onReply: string, onNoReply: string) => step({ id, type: 'branch_on_reply', withinSeconds: 3600, onReply, onNoReply });
const prop = (id: string, onTrue: string, onFalse: string) => step({ id, type: 'branch_on_property', property: 'plan', operator: 'exists', onTrue, onFalse });
const exit = (id: string) => step({ id, type: 'exit' });

const CYCLE = { path: 'steps', message: 'the steps form a cycle: every path must end' };

describe('journeyStepSchema', () => {
  it('parses each step type as given', () => {
    const steps = [
      {
        id: 'hello',
        type: 'send_template',
        template: { name: 'order_update_2', language: 'en_US' },
        parameters: { body: ['{{first_name|there}}', 'literal'] },
        next: 'pause',
      },
      { id: 'pause', type: 'wait', seconds: MAX_WAIT_SECONDS },
      { id: 'ask', type: 'branch_on_reply', withinSeconds: 1, onReply: 'x', onNoReply: 'y' },
      { id: 'vip', type: 'branch_on_property', property: 'person.plan-tier_1', operator: 'equals', value: 'gold', onTrue: 'a', onFalse: 'b' },
      { id: 'has', type: 'branch_on_property', property: 'email', operator: 'not_exists', onTrue: 'a', onFalse: 'b' },
      { id: 'End_1-x', type: 'exit' },
    ];
    for (const s of steps) expect(journeyStepSchema.parse(s)).toEqual(s);
  });

  it.each([
    ['an unknown type', { id: 'a', type: 'sms' }],
    ['an extra key (strict)', { id: 'a', type: 'exit', next: 'b' }],
    ['an empty id', { id: '', type: 'exit' }],
    ['an id with a space', { id: 'a b', type: 'exit' }],
    ['an id with a dot', { id: 'a.b', type: 'exit' }],
    ['an id of 65 characters', { id: 'a'.repeat(65), type: 'exit' }],
    ['an id with NUL', { id: 'a\u0000', type: 'exit' }],
    ['a template name in upper case', { id: 'a', type: 'send_template', template: { name: 'Welcome', language: 'en' } }],
    ['a template name with a dash', { id: 'a', type: 'send_template', template: { name: 'wel-come', language: 'en' } }],
    ['a one-letter language', { id: 'a', type: 'send_template', template: { name: 'w', language: 'e' } }],
    ['a language with a dash', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en-US' } }],
    ['a language word', { id: 'a', type: 'send_template', template: { name: 'w', language: 'english' } }],
    ['a missing template', { id: 'a', type: 'send_template' }],
    ['an empty parameter', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en' }, parameters: { body: [''] } }],
    ['a parameter of 1025 characters', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en' }, parameters: { body: ['x'.repeat(1025)] } }],
    ['a parameter with NUL', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en' }, parameters: { body: ['a\u0000'] } }],
    ['21 parameters', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en' }, parameters: { body: Array(21).fill('x') } }],
    ['header parameters (unknown key)', { id: 'a', type: 'send_template', template: { name: 'w', language: 'en' }, parameters: { header: ['x'] } }],
    ['a wait of 0 seconds', { id: 'a', type: 'wait', seconds: 0 }],
    ['a wait beyond 90 days', { id: 'a', type: 'wait', seconds: MAX_WAIT_SECONDS + 1 }],
    ['a fractional wait', { id: 'a', type: 'wait', seconds: 1.5 }],
    ['a wait as a string', { id: 'a', type: 'wait', seconds: '60' }],
    ['a reply branch without onNoReply', { id: 'a', type: 'branch_on_reply', withinSeconds: 60, onReply: 'b' }],
    ['a reply branch with a bad target id', { id: 'a', type: 'branch_on_reply', withinSeconds: 60, onReply: 'b c', onNoReply: 'd' }],
    ['equals without a value', { id: 'a', type: 'branch_on_property', property: 'plan', operator: 'equals', onTrue: 'b', onFalse: 'c' }],
    ['contains without a value', { id: 'a', type: 'branch_on_property', property: 'plan', operator: 'contains', onTrue: 'b', onFalse: 'c' }],
    ['an unknown operator', { id: 'a', type: 'branch_on_property', property: 'plan', operator: 'gt', value: '1', onTrue: 'b', onFalse: 'c' }],
    ['a property with a space', { id: 'a', type: 'branch_on_property', property: 'my plan', operator: 'exists', onTrue: 'b', onFalse: 'c' }],
  ])('refuses %s', (_name, raw) => {
    expect(journeyStepSchema.safeParse(raw).success).toBe(false);
  });

  it('names the value field when an operator needs one', () => {
    const r = journeyStepSchema.safeParse({ id: 'a', type: 'branch_on_property', property: 'plan', operator: 'not_equals', onTrue: 'b', onFalse: 'c' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.some((i) => i.path.join('.') === 'value' && i.message === 'value is required for equals, not_equals and contains')).toBe(true);
  });

  it('accepts the limits themselves', () => {
    expect(journeyStepSchema.safeParse({ id: 'a'.repeat(64), type: 'wait', seconds: 1 }).success).toBe(true);
    expect(
      journeyStepSchema.safeParse({
        id: 'a',
        type: 'send_template',
        template: { name: 'w', language: 'en' },
        parameters: { body: Array(20).fill('x'.repeat(1024)) },
      }).success,
    ).toBe(true);
    expect(journeyStepSchema.safeParse({ id: 'a', type: 'send_template', template: { name: 'w', language: 'pt_BR' }, parameters: {} }).success).toBe(true);
  });
});

describe('journeyTriggerSchema', () => {
  it.each([
    [{ type: 'api' }, { type: 'api' }],
    [
      { type: 'partner_event', eventName: 'order_shipped' },
      { type: 'partner_event', eventName: 'order_shipped' },
    ],
    [{ type: 'inbound_message' }, { type: 'inbound_message' }],
    [
      { type: 'inbound_message', keyword: '  Stop  ' },
      { type: 'inbound_message', keyword: 'Stop' },
    ],
    [
      { type: 'schedule', cron: '0 9 * * 1' },
      { type: 'schedule', cron: '0 9 * * 1' },
    ],
    [
      { type: 'schedule', cron: '*/15 8-18 * * 1-5', segment: { subscriberStatus: 'subscribed', updatedSince: '2025-01-01T00:00:00Z' } },
      { type: 'schedule', cron: '*/15 8-18 * * 1-5', segment: { subscriberStatus: 'subscribed', updatedSince: '2025-01-01T00:00:00Z' } },
    ],
  ])('parses %j', (raw, parsed) => {
    expect(journeyTriggerSchema.parse(raw)).toEqual(parsed);
  });

  it.each([
    ['an unknown type', { type: 'webhook' }],
    ['api with an extra key', { type: 'api', path: '/x' }],
    ['a partner event without a name', { type: 'partner_event' }],
    ['an empty event name', { type: 'partner_event', eventName: '' }],
    ['an event name with a space', { type: 'partner_event', eventName: 'order shipped' }],
    ['an event name with a tab', { type: 'partner_event', eventName: 'order\tshipped' }],
    ['an event name with a no-break space', { type: 'partner_event', eventName: 'order\u00a0shipped' }],
    ['an event name of 129 characters', { type: 'partner_event', eventName: 'e'.repeat(129) }],
    ['a blank keyword', { type: 'inbound_message', keyword: '   ' }],
    ['a keyword of 65 characters', { type: 'inbound_message', keyword: 'k'.repeat(65) }],
    ['a four-field cron', { type: 'schedule', cron: '0 9 * *' }],
    ['a six-field cron', { type: 'schedule', cron: '0 0 9 * * 1' }],
    ['an empty cron', { type: 'schedule', cron: '' }],
    ['a segment of unsubscribed contacts', { type: 'schedule', cron: '0 9 * * 1', segment: { subscriberStatus: 'unsubscribed' } }],
  ])('refuses %s', (_name, raw) => {
    expect(journeyTriggerSchema.safeParse(raw).success).toBe(false);
  });
});

describe('JOURNEY_TRANSITIONS', () => {
  it('is the documented state machine: archived is final', () => {
    expect(JOURNEY_TRANSITIONS).toEqual({
      activate: { draft: 'active', paused: 'active' },
      pause: { active: 'paused' },
      archive: { draft: 'archived', active: 'archived', paused: 'archived' },
    });
    for (const moves of Object.values(JOURNEY_TRANSITIONS)) {
      expect(moves.archived).toBeUndefined();
      for (const [from, to] of Object.entries(moves)) {
        expect(JOURNEY_STATUSES).toContain(from);
        expect(JOURNEY_STATUSES).toContain(to);
        expect(to).not.toBe(from);
      }
    }
  });
});

describe('stepTargets', () => {
  it('follows each step type', () => {
    const steps = [send('a'), wait('b', 'e'), reply('c', 'd', 'e'), prop('d', 'e', 'a'), exit('e'), send('f')];
    expect(stepTargets(steps, 0)).toEqual(['b']);
    expect(stepTargets(steps, 1)).toEqual(['e']);
    expect(stepTargets(steps, 2)).toEqual(['d', 'e']);
    expect(stepTargets(steps, 3)).toEqual(['e', 'a']);
    expect(stepTargets(steps, 4)).toEqual([]);
    expect(stepTargets(steps, 5)).toEqual([]);
  });
});

describe('validateJourneySteps', () => {
  it('accepts a linear journey, branches that meet again, and a single exit', () => {
    expect(validateJourneySteps([send('a'), wait('b'), send('c')])).toEqual([]);
    expect(validateJourneySteps([reply('ask', 'yes', 'no'), send('yes', 'done'), send('no', 'done'), exit('done')])).toEqual([]);
    expect(validateJourneySteps([prop('p', 'x', 'x'), exit('x')])).toEqual([]);
    expect(validateJourneySteps([exit('only')])).toEqual([]);
  });

  it('refuses an empty journey', () => {
    expect(validateJourneySteps([])).toEqual([{ path: 'steps', message: 'a journey needs at least one step' }]);
  });

  it('allows 50 steps and refuses 51', () => {
    const linear = (n: number) => Array.from({ length: n }, (_, i) => wait(`s${i}`));
    expect(MAX_JOURNEY_STEPS).toBe(50);
    expect(validateJourneySteps(linear(50))).toEqual([]);
    expect(validateJourneySteps(linear(51))).toEqual([{ path: 'steps', message: 'at most 50 steps' }]);
  });

  it('refuses duplicate ids, naming each repeat', () => {
    expect(validateJourneySteps([send('a'), wait('a'), exit('b'), exit('a')])).toEqual([
      { path: 'steps.1.id', message: 'duplicate step id a' },
      { path: 'steps.3.id', message: 'duplicate step id a' },
    ]);
  });

  it('refuses targets that name no step, one issue each', () => {
    expect(validateJourneySteps([send('a', 'ghost'), exit('b')])).toEqual([{ path: 'steps.0', message: 'unknown step ghost' }]);
    expect(validateJourneySteps([exit('x'), reply('r', 'nope', 'nada')])).toEqual([
      { path: 'steps.1', message: 'unknown step nope' },
      { path: 'steps.1', message: 'unknown step nada' },
    ]);
  });

  it('reports every structural issue together, and no cycle check on a broken list', () => {
    expect(validateJourneySteps([wait('a', 'a'), wait('a', 'ghost')])).toEqual([
      { path: 'steps.1.id', message: 'duplicate step id a' },
      { path: 'steps.1', message: 'unknown step ghost' },
    ]);
  });

  it.each([
    ['a self-loop', [wait('a', 'a')]],
    ['two steps pointing at each other', [send('a', 'b'), wait('b', 'a')]],
    ['a loop back from the end of a fall-through', [send('a'), wait('b'), send('c', 'a')]],
    ['a reply branch looping back', [send('a'), reply('r', 'a', 'end'), exit('end')]],
    ['a property branch whose false side loops', [prop('p', 'end', 'w'), wait('w', 'p'), exit('end')]],
    ['a loop later in the journey', [send('a', 'c'), exit('b'), wait('c', 'd'), wait('d', 'c')]],
  ])('refuses %s', (_name, steps) => {
    expect(validateJourneySteps(steps)).toEqual([CYCLE]);
  });

  it('only checks what the first step can reach', () => {
    // b and c loop, but no run ever gets there.
    expect(validateJourneySteps([exit('a'), wait('b', 'c'), wait('c', 'b')])).toEqual([]);
  });
});

/**
 * Any step list, parsed: validation never throws, and what it accepts can be walked from the
 * first step to an end in at most steps.length moves along stepTargets (no cycle is reachable);
 * it refuses a list only for a duplicate id, an unknown target, a reachable cycle or a size
 * outside 1-50.
 */
describe('validateJourneySteps (property)', () => {
  const TYPES = ['send_template', 'wait', 'branch_on_reply', 'branch_on_property', 'exit'] as const;
  /** Each step's raw material: its type, an id choice and target choices (resolved once the list length is known). */
  const rawStep = fc.record({
    type: fc.constantFrom(...TYPES),
    dupOf: fc.option(fc.nat(), { freq: 3 }),
    targets: fc.array(fc.record({ kind: fc.constantFrom('forward', 'any', 'unknown', 'none'), n: fc.nat() }), { minLength: 2, maxLength: 2 }),
  });
  /** Which defects a list may have (so clean lists, and lists with one kind of defect, are common). */
  const rarely = fc.constantFrom(false, false, false, true);
  const flags = fc.record({ dup: rarely, unknown: rarely, back: fc.boolean() });

  type Flags = { dup: boolean; unknown: boolean; back: boolean };
  function build(raws: { type: (typeof TYPES)[number]; dupOf: number | null; targets: { kind: string; n: number }[] }[], f: Flags): JourneyStep[] {
    const ids = raws.map((r, i) => (f.dup && r.dupOf !== null && i > 0 ? `s${r.dupOf % i}` : `s${i}`));
    const target = (i: number, t: { kind: string; n: number }): string | undefined => {
      if (t.kind === 'none' || (t.kind === 'unknown' && !f.unknown)) return undefined;
      if (t.kind === 'unknown') return 'ghost';
      if (t.kind === 'any' && !f.back) return i + 1 < raws.length ? ids[i + 1 + (t.n % (raws.length - i - 1))] : undefined;
      if (t.kind === 'forward') return i + 1 < raws.length ? ids[i + 1 + (t.n % (raws.length - i - 1))] : undefined;
      return ids[t.n % (i + 1)]; // back (or to itself)
    };
    return raws.map((r, i) => {
      const [a, b] = [target(i, r.targets[0]!), target(i, r.targets[1]!)];
      const id = ids[i]!;
      switch (r.type) {
        case 'send_template':
          return step({ id, type: 'send_template', template: { name: 'w', language: 'en' }, ...(a ? { next: a } : {}) });
        case 'wait':
          return step({ id, type: 'wait', seconds: 5, ...(a ? { next: a } : {}) });
        case 'branch_on_reply':
          return a && b ? step({ id, type: 'branch_on_reply', withinSeconds: 5, onReply: a, onNoReply: b }) : exit(id);
        case 'branch_on_property':
          return a && b ? step({ id, type: 'branch_on_property', property: 'plan', operator: 'exists', onTrue: a, onFalse: b }) : exit(id);
        case 'exit':
          return step({ id, type: 'exit' });
      }
    });
  }

  /** Moves from the first step until every walk has ended; null when some walk is still going after steps.length moves. */
  function longestWalk(steps: readonly JourneyStep[]): number | null {
    const at = new Map(steps.map((s, i) => [s.id, i] as const));
    let frontier = new Set([0]);
    for (let moves = 0; moves <= steps.length; moves++) {
      const next = new Set<number>();
      for (const i of frontier) {
        const ts = stepTargets(steps, i);
        for (const t of ts) {
          const j = at.get(t);
          if (j === undefined) throw new Error(`accepted list has an unknown target ${t}`);
          next.add(j);
        }
      }
      if (next.size === 0) return moves;
      frontier = next;
    }
    return null;
  }

  it('never throws; an accepted list is walkable to an end in at most steps.length moves, and only lists with a real defect are refused', () => {
    let accepted = 0;
    let cycles = 0;
    fc.assert(
      fc.property(fc.array(rawStep, { minLength: 0, maxLength: 10 }), flags, (raws, f) => {
        const steps = build(raws, f);
        const issues = validateJourneySteps(steps);
        expect(Array.isArray(issues)).toBe(true);
        for (const i of issues) {
          expect(typeof i.path).toBe('string');
          expect(typeof i.message).toBe('string');
        }
        const ids = steps.map((s) => s.id);
        const unique = new Set(ids).size === ids.length;
        const known = steps.every((_, i) => stepTargets(steps, i).every((t) => ids.includes(t)));
        if (issues.length === 0) {
          accepted++;
          expect(steps.length).toBeGreaterThan(0);
          expect(unique).toBe(true);
          expect(known).toBe(true);
          const moves = longestWalk(steps);
          expect(moves).not.toBeNull();
          expect(moves!).toBeLessThan(steps.length);
        } else if (steps.length > 0 && unique && known) {
          // The only refusal left for a well-formed list is a reachable cycle.
          cycles++;
          expect(issues).toEqual([CYCLE]);
          expect(longestWalk(steps)).toBeNull();
        } else {
          expect(issues.some((i) => i.message === CYCLE.message)).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
    // The generator reaches both outcomes often enough to mean something.
    expect(accepted).toBeGreaterThan(40);
    expect(cycles).toBeGreaterThan(5);
  });

  it('never throws on long lists (no deep recursion): more than 50 steps is an issue', () => {
    fc.assert(
      fc.property(fc.integer({ min: 51, max: 400 }), (n) => {
        const steps = Array.from({ length: n }, (_, i) => wait(`s${i}`));
        expect(validateJourneySteps(steps)).toEqual([{ path: 'steps', message: 'at most 50 steps' }]);
      }),
      { numRuns: 20 },
    );
  });
});
