import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { readChatCompletion, searchTerms, toPrefixTsQuery } from './assistant';

/**
 * The operator assistant turns a free-text question into a PostgreSQL tsquery and reads an LLM
 * service's answer. Any question yields a query of letters and digits joined by the query
 * syntax only (nothing a question can inject), and any answer body yields text or null.
 */

describe('assistant input and output', () => {
  it('any question: at most max distinct terms of letters and digits, and a tsquery of nothing else', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileString(), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.constantFrom("a' | b:* & !c", 'x) <-> (y', '\\:*')),
        fc.integer({ min: 1, max: 20 }),
        (question, max) => {
          const terms = searchTerms(question, max);
          expect(terms.length).toBeLessThanOrEqual(max);
          expect(new Set(terms).size).toBe(terms.length);
          for (const t of terms) {
            expect(t).toMatch(/^[\p{L}\p{N}]+$/u);
            expect(t.length).toBeGreaterThanOrEqual(2);
          }
          const query = toPrefixTsQuery(terms);
          if (terms.length === 0) expect(query).toBeNull();
          else expect(query).toMatch(/^[\p{L}\p{N}]+:\*(?: \| [\p{L}\p{N}]+:\*)*$/u);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('any answer body: the first choice trimmed, or null', () => {
    const completion = fc.record({ choices: fc.array(fc.record({ message: fc.record({ content: fc.option(hostileString()) }) }), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.oneof(completion, hostileValue()), (body) => {
        const out = readChatCompletion(body);
        if (out === null) return;
        expect(out).toBe(out.trim());
        expect(out).not.toBe('');
      }),
      { numRuns: 300 },
    );
  });
});
