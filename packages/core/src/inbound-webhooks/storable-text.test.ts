import { describe, expect, it } from 'vitest';
import { validateMapping } from './mapping';
import { payloadShape } from './payload-shape';
import { redactInboundHeaders } from './redact-headers';
import { hasUnstorable, storableText } from './storable-text';

describe('storable text', () => {
  it('finds what jsonb refuses and what hides a value', () => {
    for (const s of ['a\u0000', '\ud800', 'x\udc00', '\ud83d', 'tab\t', '\u007f']) expect([s, hasUnstorable(s)]).toEqual([s, true]);
    for (const s of ['', 'plain', '😀', 'è€']) expect([s, hasUnstorable(s)]).toEqual([s, false]);
  });

  it('drops NULs, replaces the rest, counts code points', () => {
    expect(storableText('a\u0000b\tc\ud800d', 10)).toBe('ab?c\uFFFDd');
    expect(storableText('😀😀😀', 2)).toBe('😀😀');
    expect(storableText(`\u0000${'x'.repeat(5)}`, 5)).toBe('xxxxx');
  });

  it('is what the stored outputs use', () => {
    const key = JSON.parse('"k\\ud800"') as string;
    expect(payloadShape({ [key]: 1 })).toEqual({ type: 'object', keys: { '[invalid-key-0]': { type: 'number' } } });
    const v = validateMapping({ to: 'p', [key]: 'x', ['\u0000'.repeat(3)]: 'x' }, { templateName: 'a', templateLocale: 'en' });
    expect(v.ok ? [] : v.issues.map((i) => i.target)).toEqual(['k\uFFFD', '(empty)']);
    expect(redactInboundHeaders({ 'user-agent': `ua\ud800`, 'x-\u0000a': 'v' })).toEqual({ 'user-agent': 'ua\uFFFD', 'x-a': '[redacted]' });
  });
});
