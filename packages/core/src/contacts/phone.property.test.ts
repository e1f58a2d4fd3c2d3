import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeRecipientPhone } from '../inbound-webhooks/mapping';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { providerPhone } from '../webhooks/identity';
import { envelopePhoneNeedles } from './privacy';
import { maskPhoneNumber } from './redaction';
import { toE164 } from './subscriber';

/**
 * Phone numbers arrive from the provider (`wa_id`: digits), from inbound webhook payloads and
 * legacy callers (any format), and from operators. Every reader yields E.164 or a typed refusal
 * (null), is idempotent, and reads every common way of writing one number as that number.
 */

const E164 = /^\+[1-9]\d{6,14}$/;
const e164 = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{6,14}$/)).map(([first, rest]) => `+${first}${rest}`);

/** The number with separators a person or a CRM writes between digit groups. */
const formatted = (separators: string) =>
  fc
    .tuple(e164, fc.array(fc.constantFrom(...separators), { minLength: 14, maxLength: 14 }), fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }))
    .map(([n, seps, at]) => {
      const digits = n.slice(1);
      const written = [...digits].map((d, i) => (i > 0 && at[i - 1] ? `${seps[i - 1]}${d}` : d)).join('');
      return { n, digits, written };
    });

const anyInput = fc.oneof(hostileString(), fc.stringMatching(/^[+0-9 ().-]{0,24}$/), e164);

describe('every phone reader is total: E.164 or null, never a throw', () => {
  it('toE164 of a value that is not a string is null (it threw "raw.trim is not a function"; found by the property below)', () => {
    for (const v of [true, 4915112345678, {}, ['+4915112345678'], 1n]) expect(toE164(v as never)).toBeNull();
  });

  it('toE164, normalizeRecipientPhone and providerPhone on any value', () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, hostileValue()), (raw) => {
        for (const out of [toE164(raw as string), normalizeRecipientPhone(raw as string)]) {
          if (out !== null) expect(out).toMatch(E164);
        }
        const p = providerPhone(raw);
        if (p !== null) expect(`+${p}`).toMatch(E164);
      }),
      { numRuns: 300 },
    );
  });

  it('both normalizers are idempotent, and what toE164 accepts the recipient normalizer accepts alike', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const a = toE164(raw);
        if (a !== null) {
          expect(toE164(a)).toBe(a);
          expect(normalizeRecipientPhone(a)).toBe(a);
          expect(providerPhone(raw)).toBe(a.slice(1));
        } else {
          expect(providerPhone(raw)).toBeNull();
        }
        const b = normalizeRecipientPhone(raw);
        if (b !== null) expect(normalizeRecipientPhone(b)).toBe(b);
      }),
      { numRuns: 300 },
    );
  });
});

describe('one number, many spellings', () => {
  it('toE164 reads digits with or without +, with spaces, dashes and parentheses, as the number', () => {
    fc.assert(
      fc.property(formatted(' -'), fc.boolean(), fc.constantFrom('', ' '), ({ n, written }, plus, pad) => {
        expect(toE164(`${pad}${plus ? '+' : ''}${written}${pad}`)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });

  it('normalizeRecipientPhone reads +, 00 and bare digits with spaces, dots and dashes, and a "(0)" trunk mark, as the number', () => {
    fc.assert(
      fc.property(formatted(' .-'), fc.constantFrom('+', '00', ''), ({ n, written }, prefix) => {
        expect(normalizeRecipientPhone(`${prefix}${written}`)).toBe(n);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(e164, fc.integer({ min: 1, max: 3 }), (n, cc) => {
        const digits = n.slice(1);
        fc.pre(digits.length - cc >= 6);
        expect(normalizeRecipientPhone(`+${digits.slice(0, cc)} (0)${digits.slice(cc)}`)).toBe(n);
      }),
      { numRuns: 200 },
    );
  });

  it('a national number (leading 0, no country) and letters are refused, not guessed', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{6,12}$/), fc.constantFrom('a', 'x', '#', '*', '+', '\u0660'), fc.nat(), (rest, bad, at) => {
        expect(normalizeRecipientPhone(`0${rest}`)).toBeNull();
        expect(toE164(`0${rest}`)).toBeNull();
        const i = 1 + (at % rest.length);
        const spoiled = `+${rest.slice(0, i)}${bad}${rest.slice(i)}`;
        expect(normalizeRecipientPhone(spoiled)).toBeNull();
        expect(toE164(spoiled)).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});

describe('what is shown of a number', () => {
  it('maskPhoneNumber keeps the length and shows at most six characters, the country prefix and the last three', () => {
    fc.assert(
      fc.property(fc.oneof(e164, hostileString()), (phone) => {
        const masked = maskPhoneNumber(phone);
        expect(masked.length).toBe(phone.length);
        let shown = 0;
        for (let i = 0; i < masked.length; i += 1) if (masked[i] !== '*') shown += 1;
        expect(shown).toBeLessThanOrEqual(phone.length > 5 ? 6 : 0);
        if (E164.test(phone)) expect(masked.slice(0, 3) + masked.slice(-3)).toBe(phone.slice(0, 3) + phone.slice(-3));
      }),
      { numRuns: 300 },
    );
  });

  it('envelopePhoneNeedles are the JSON strings the provider writes the number as', () => {
    fc.assert(
      fc.property(e164, (n) => {
        expect(envelopePhoneNeedles(n).map((s) => JSON.parse(s) as string)).toEqual([n.slice(1), n]);
      }),
      { numRuns: 100 },
    );
  });
});
