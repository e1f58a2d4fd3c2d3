import { describe, expect, it } from 'vitest';
import { derivePreview, deriveVariables } from './derive';
import { normalizeTemplateName } from './placeholders';

describe('normalizeTemplateName', () => {
  it('lower-cases and replaces characters outside [a-z0-9_] with _', () => {
    expect(normalizeTemplateName('Order Confirmation')).toBe('order_confirmation');
    expect(normalizeTemplateName('  promo-2024!  ')).toBe('promo_2024_');
    expect(normalizeTemplateName('ordine_già')).toBe('ordine_gi_');
  });
});

describe('deriveVariables and derivePreview', () => {
  const components = [
    { type: 'HEADER' as const, format: 'TEXT' as const, text: 'Order {{1}}', example: { header_text: ['#42'] } },
    { type: 'BODY' as const, text: 'Hi {{1}}, order {{2}} ships {{1}} today.', example: { body_text: [['Ann', '#42']] } },
    { type: 'FOOTER' as const, text: 'Thanks' },
  ];
  it('lists body variables once, in order of appearance', () => {
    expect(deriveVariables(components)).toEqual(['1', '2']);
    expect(deriveVariables([{ type: 'BODY', text: 'Hi {{first_name}}, {{order}} ok' }])).toEqual(['first_name', 'order']);
    expect(deriveVariables([])).toEqual([]);
  });
  it('joins header, body and footer with examples filled in', () => {
    expect(derivePreview(components)).toBe('Order #42\n\nHi Ann, order #42 ships Ann today.\n\nThanks');
  });
  it('keeps placeholders without examples', () => {
    expect(derivePreview([{ type: 'BODY', text: 'Hi {{1}} there' }])).toBe('Hi {{1}} there');
    expect(derivePreview([{ type: 'BODY', text: 'Hi {{name}} there', example: { body_text_named_params: [{ param_name: 'name', example: 'Bo' }] } }])).toBe(
      'Hi Bo there',
    );
  });
  it('renders the AUTHENTICATION preset', () => {
    const auth = [
      { type: 'BODY' as const, add_security_recommendation: true },
      { type: 'FOOTER' as const, code_expiration_minutes: 5 },
    ];
    expect(deriveVariables(auth, 'AUTHENTICATION')).toEqual(['1']);
    expect(derivePreview(auth, 'AUTHENTICATION')).toBe(
      '{{1}} is your verification code. For your security, do not share this code.\n\nThis code expires in 5 minutes.',
    );
  });
});
