import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePreview, deriveVariables } from './derive';
import { normalizeTemplateName, TEMPLATE_NAME_RE } from './placeholders';
import { TEMPLATE_ISSUE_CODES, type TemplateComponent, type TemplateDefinition } from './schema';
import { validateTemplate } from './validate';

// Plain words: letters only, so generated text never contains braces or punctuation that
// would change which rule fires.
const word = fc.stringMatching(/^[A-Za-zàèéìòù]{1,8}$/);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));

/**
 * A valid POSITIONAL body: n placeholders {{1}}..{{n}}, each preceded by 1-3 words and the
 * whole followed by 2+ words, so none is adjacent or dangling and the ratio rule holds
 * (>= 2n + 1 fixed words).
 */
const validBody = fc
  .integer({ min: 0, max: 8 })
  .chain((n) => fc.tuple(fc.constant(n), fc.array(words(2, 3), { minLength: n, maxLength: n }), words(3, 5), fc.array(word, { minLength: n, maxLength: n })))
  .map(([n, gaps, tail, examples]) => {
    const text = gaps.map((g, i) => `${g} {{${i + 1}}}`).join(' ') + ` ${tail}`;
    return { n, component: { type: 'BODY', text: text.trim(), ...(n ? { example: { body_text: [examples] } } : {}) } as TemplateComponent };
  });

const def = (body: TemplateComponent, patch: Partial<TemplateDefinition> = {}): TemplateDefinition => ({
  name: 'generated',
  language: 'it',
  category: 'MARKETING',
  parameterFormat: 'POSITIONAL',
  components: [body],
  ...patch,
});

describe('validator properties', () => {
  it('accepts every well-formed generated body', () => {
    fc.assert(
      fc.property(validBody, ({ component }) => {
        expect(validateTemplate(def(component))).toEqual([]);
      }),
    );
  });

  it('a missing example value is always caught', () => {
    fc.assert(
      fc.property(
        validBody.filter((b) => b.n > 0),
        ({ component }) => {
          const row = component.example!.body_text![0]!.slice(1);
          const codes = validateTemplate(def({ ...component, example: { body_text: [row] } })).map((i) => i.code);
          expect(codes).toContain('example_mismatch');
        },
      ),
    );
  });

  it('a placeholder appended at the end or prepended at the start is always dangling', () => {
    fc.assert(
      fc.property(validBody, fc.boolean(), ({ n, component }, atEnd) => {
        const p = `{{${n + 1}}}`;
        const text = atEnd ? `${component.text} ${p}` : `${p} ${component.text}`;
        const example = { body_text: [[...(component.example?.body_text?.[0] ?? []), 'x']] };
        const codes = validateTemplate(def({ ...component, text, example })).map((i) => i.code);
        expect(codes).toContain('placeholder_dangling');
      }),
    );
  });

  it('positional numbering is accepted exactly when it is 1..n', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 6 }), (numbers) => {
        const text = `Hello there ${numbers.map((n) => `friend {{${n}}} and more`).join(' ')} thanks a lot`;
        const body: TemplateComponent = { type: 'BODY', text, example: { body_text: [numbers.map(() => 'v')] } };
        const sequential = [...numbers].sort((a, b) => a - b).every((n, i) => n === i + 1);
        expect(validateTemplate(def(body)).some((i) => i.code === 'placeholder_sequence')).toBe(!sequential);
      }),
    );
  });

  it('any body over 1024 characters is too long', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1025, max: 3000 }), word, (len, w) => {
        const text =
          `${w} `
            .repeat(Math.ceil(len / (w.length + 1)))
            .slice(0, len)
            .trim() + 'x'.repeat(Math.max(0, len - 1024));
        const codes = validateTemplate(def({ type: 'BODY', text })).map((i) => i.code);
        expect(codes).toContain('text_too_long');
      }),
    );
  });

  it('never throws and only returns known codes, whatever the input', () => {
    const button = fc.record(
      {
        type: fc.constantFrom('QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP', 'FLOW', 'VOICE_CALL', 'CATALOG', 'MPM', 'SPM'),
        text: fc.string({ maxLength: 30 }),
        url: fc.string(),
        example: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 })),
        otp_type: fc.constantFrom('COPY_CODE', 'ONE_TAP', 'ZERO_TAP'),
        supported_apps: fc.array(fc.record({ package_name: fc.string(), signature_hash: fc.string() }), { maxLength: 7 }),
        zero_tap_terms_accepted: fc.boolean(),
        flow_id: fc.string(),
        flow_json: fc.string(),
        flow_action: fc.constantFrom('navigate', 'data_exchange'),
      },
      { requiredKeys: ['type'] },
    );
    const component = fc.record(
      {
        type: fc.constantFrom('HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'LIMITED_TIME_OFFER'),
        format: fc.constantFrom('TEXT', 'IMAGE', 'GIF', 'LOCATION', 'PRODUCT', 'BOGUS'),
        text: fc.string({ maxLength: 200 }),
        buttons: fc.array(button, { maxLength: 12 }),
        limited_time_offer: fc.record({ text: fc.string({ maxLength: 20 }) }, { requiredKeys: [] }),
        code_expiration_minutes: fc.integer({ min: -5, max: 100 }),
      },
      { requiredKeys: ['type'] },
    ) as fc.Arbitrary<TemplateComponent>;
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.constantFrom('UTILITY', 'MARKETING', 'AUTHENTICATION', 'X'),
        fc.constantFrom('POSITIONAL', 'NAMED', 'Y'),
        fc.array(component, { maxLength: 5 }),
        fc.option(fc.integer({ min: -10, max: 3_000_000 })),
        (name, language, category, parameterFormat, components, messageSendTtlSeconds) => {
          const issues = validateTemplate({ name, language, category, parameterFormat, components, messageSendTtlSeconds });
          for (const i of issues) expect(TEMPLATE_ISSUE_CODES).toContain(i.code);
        },
      ),
    );
  });
});

describe('naming and derivation properties', () => {
  it('normalizeTemplateName is idempotent and yields a permitted name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (raw) => {
        const once = normalizeTemplateName(raw);
        expect(normalizeTemplateName(once)).toBe(once);
        if (raw.trim() !== '') expect(once).toMatch(TEMPLATE_NAME_RE);
      }),
    );
  });

  it('variables are 1..n in order of appearance and the preview fills every example', () => {
    fc.assert(
      fc.property(validBody, ({ n, component }) => {
        expect(deriveVariables([component])).toEqual(Array.from({ length: n }, (_, i) => String(i + 1)));
        expect(derivePreview([component])).not.toContain('{{');
      }),
    );
  });
});
