import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, utf16String } from '../testing/hostile-input';
import { hasUnstorable, isWellFormedText, storableText } from './storable-text';

/**
 * The text guards in front of every jsonb column a run writes, checked against an independent
 * oracle (encodeURIComponent refuses exactly the unpaired surrogates) and as laws of storableText.
 */

const pairedUtf16 = (s: string): boolean => {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
};
const hasControl = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');
const anyText = fc.oneof(hostileString(), utf16String({ maxLength: 300 }));

describe('storable text', () => {
  it('isWellFormedText and hasUnstorable agree with the oracle on any UTF-16', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(isWellFormedText(s)).toBe(!s.includes('\u0000') && pairedUtf16(s));
        expect(hasUnstorable(s)).toBe(hasControl(s) || !pairedUtf16(s));
      }),
      { numRuns: 300 },
    );
  });

  it('storableText: storable, at most max code points, idempotent, and text that needed nothing is kept whole', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 400 }), (s, max) => {
        const out = storableText(s, max);
        expect(hasUnstorable(out)).toBe(false);
        expect([...out].length).toBeLessThanOrEqual(max);
        expect(storableText(out, max)).toBe(out);
        if (!hasUnstorable(s) && [...s].length <= max) expect(out).toBe(s);
        // Nothing is invented: the output is a prefix of the input with only replacements made.
        expect([...out].length).toBeLessThanOrEqual([...s.replaceAll('\u0000', '')].length);
      }),
      { numRuns: 300 },
    );
  });
});
