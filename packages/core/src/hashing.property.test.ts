import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './hashing';
import { hostileString, utf16String } from './testing/hostile-input';

/**
 * constantTimeEqual compares presented secrets (compat ingress secrets, verify tokens, the
 * metrics token) with configured ones: it answers exactly string equality, for any UTF-16.
 */

describe('constantTimeEqual', () => {
  it('a lone surrogate does not equal U+FFFD or another lone surrogate (UTF-8 hashing made them equal; found by the property below)', () => {
    expect(constantTimeEqual('secret\ud800', 'secret\ufffd')).toBe(false);
    expect(constantTimeEqual('secret\ud800', 'secret\udbff')).toBe(false);
    expect(constantTimeEqual('secret\ud800', 'secret\ud800')).toBe(true);
  });

  it('is string equality, for any two strings and for a string and any one-unit change of it', () => {
    fc.assert(
      fc.property(hostileString(), hostileString(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(utf16String({ minLength: 1, maxLength: 40 }), fc.nat(), utf16String({ minLength: 1, maxLength: 1 }), (a, at, c) => {
        const i = at % a.length;
        const b = `${a.slice(0, i)}${c}${a.slice(i + 1)}`;
        expect(constantTimeEqual(a, b)).toBe(a === b);
      }),
      { numRuns: 300 },
    );
  });
});
