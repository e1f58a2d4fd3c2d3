import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { componentsSchema, TEMPLATE_CATEGORIES, TEMPLATE_ISSUE_CODES } from './schema';
import { mapProviderTemplateStatus, providerReason } from './status';
import { providerComponentExamples, providerCreationExamples } from './testing/provider-examples';
import { validateTemplate } from './validate';

/**
 * A template draft travels as the caller sent it: components through the shape schema, then the
 * validator. Starting from every published provider example with any one node replaced by any
 * value, the schema answers without throwing, and whatever it accepts the validator judges
 * without throwing, with known codes and paths into the definition. The provider's status and
 * reason strings map totally and stably.
 */

const examples = [...providerCreationExamples(), ...providerComponentExamples()].map((e) => e.body);

type Path = (string | number)[];
function nodePaths(v: unknown, path: Path = []): Path[] {
  const here = [path];
  if (Array.isArray(v)) return here.concat(...v.map((x, i) => nodePaths(x, [...path, i])));
  if (v && typeof v === 'object') return here.concat(...Object.entries(v).map(([k, x]) => nodePaths(x, [...path, k])));
  return here;
}
function replaceAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = JSON.parse(JSON.stringify(root)) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return copy;
}

const mutated = fc
  .tuple(
    fc.constantFrom(...examples),
    fc.nat(),
    fc.oneof(hostileValue(), hostileString(), fc.constantFrom('body', 'quick_reply', 'one_tap', 'BODY', 'HEADER', 'TEXT')),
  )
  .map(([body, at, value]) => {
    const paths = nodePaths(body.components);
    return { body, components: replaceAt(body.components, paths[at % paths.length]!, value) };
  });

const TOP_FIELDS = ['name', 'language', 'category', 'parameterFormat', 'messageSendTtlSeconds', 'components'];

describe('template drafts from outside', () => {
  it('any provider example with one node replaced by anything: the schema answers, and the validator judges what it accepts', () => {
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(
        mutated,
        hostileString(),
        fc.oneof(fc.constantFrom(...TEMPLATE_CATEGORIES), hostileString()),
        fc.oneof(fc.constantFrom('en_US', 'it'), hostileString()),
        fc.option(fc.oneof(fc.integer(), fc.double())),
        ({ body, components }, name, category, language, ttl) => {
          const parsed = componentsSchema.safeParse(components);
          outcomes.add(parsed.success ? 'accepted' : 'refused');
          if (!parsed.success) return;
          for (const def of [
            { name, language, category, parameterFormat: 'POSITIONAL', components: parsed.data, messageSendTtlSeconds: ttl },
            { name: body.name, language: body.language, category: body.category, parameterFormat: 'POSITIONAL', components: parsed.data },
          ]) {
            const issues = validateTemplate(def);
            for (const issue of issues) {
              expect(TEMPLATE_ISSUE_CODES).toContain(issue.code);
              expect(TOP_FIELDS).toContain(issue.path[0]);
              if (issue.path[0] === 'components' && issue.path.length > 1) expect(issue.path[1]).toBeLessThan(parsed.data.length);
              expect(typeof issue.message).toBe('string');
            }
          }
        },
      ),
      { numRuns: 200 },
    );
    expect([...outcomes].sort()).toEqual(['accepted', 'refused']);
  });

  it('the schema never accepts a NUL, and takes any value at all without throwing', () => {
    fc.assert(
      fc.property(fc.oneof(hostileValue(), fc.array(hostileValue(), { maxLength: 3 })), (v) => {
        const parsed = componentsSchema.safeParse(v);
        if (parsed.success) expect(JSON.stringify(parsed.data)).not.toContain('\\u0000');
      }),
      { numRuns: 100 },
    );
  });
});

describe('provider template statuses', () => {
  it('any status maps to lower case and mapping twice changes nothing; a reason is null or the reason as sent', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileString(), fc.constantFrom('APPROVED', 'approved', 'Pending', 'IN_APPEAL', 'REINSTATED', 'REJECTED', 'PAUSED', 'ß', 'İ')),
        (s) => {
          const mapped = mapProviderTemplateStatus(s);
          expect(mapped).toBe(mapped.toLowerCase());
          expect(mapProviderTemplateStatus(mapped)).toBe(mapped);
          const reason = providerReason(s);
          expect(reason === null || reason === s).toBe(true);
          if (s.trim() !== '' && s.toUpperCase() !== 'NONE') expect(reason).toBe(s);
        },
      ),
      { numRuns: 300 },
    );
  });
});
