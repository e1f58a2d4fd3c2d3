import { describe, expect, it } from 'vitest';
import { escapeNul, nulFree, refuseNul, safeString } from './text';

describe('NUL at the boundary', () => {
  it('safeString and refuseNul refuse a NUL; nulFree looks into keys and nested values', () => {
    expect(safeString().safeParse('a\u0000b').success).toBe(false);
    expect(safeString().safeParse('ab').success).toBe(true);
    expect(nulFree({ a: [{ 'k\u0000': 1 }] })).toBe(false);
    expect(nulFree({ a: [{ k: 'v' }] })).toBe(true);
    expect(() => refuseNul('x\u0000', 'limit')).toThrow(/limit must not contain NUL/);
  });

  it('escapeNul keeps stored-as-received data storable: every NUL becomes the text \\u0000', () => {
    const escaped = escapeNul({ 'k\u0000': ['a\u0000b', 1, null], n: { d: '\u0000' } });
    expect(escaped).toEqual({ 'k\\u0000': ['a\\u0000b', 1, null], n: { d: '\\u0000' } });
    expect(nulFree(escaped)).toBe(true);
  });
});
