import { describe, expect, it } from 'vitest';
import type { TemplateComponent, TemplateDefinition, TemplateIssueCode } from './schema';
import { STARTER_PACK } from './starter-pack';
import { validateTemplate } from './validate';

const BODY: TemplateComponent = { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped today.', example: { body_text: [['Ann', '#1']] } };
const base = (patch: Partial<TemplateDefinition> = {}): TemplateDefinition => ({
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  parameterFormat: 'POSITIONAL',
  components: [BODY],
  ...patch,
});
const codes = (def: TemplateDefinition): TemplateIssueCode[] => validateTemplate(def).map((i) => i.code);
const withBody = (text: string, examples?: string[], extra: Partial<TemplateComponent> = {}): TemplateDefinition =>
  base({ components: [{ type: 'BODY', text, ...(examples ? { example: { body_text: [examples] } } : {}), ...extra }] });
const withComponents = (...components: TemplateComponent[]): TemplateDefinition => base({ components: [BODY, ...components] });
const withButtons = (...buttons: NonNullable<TemplateComponent['buttons']>): TemplateDefinition => withComponents({ type: 'BUTTONS', buttons });

describe('validateTemplate: accepts', () => {
  it('a minimal valid template', () => expect(validateTemplate(base())).toEqual([]));
  it('every starter pack entry', () => {
    for (const t of STARTER_PACK) expect(validateTemplate(t), `${t.name}/${t.language}`).toEqual([]);
  });
  it('a body without placeholders and no example', () => expect(codes(withBody('Our office is closed today.'))).toEqual([]));
});

describe('name, language, category, parameter format', () => {
  it('requires a name', () => expect(codes(base({ name: '  ' }))).toEqual(['name_required']));
  it('rejects characters outside [a-z0-9_]', () => {
    for (const name of ['Order', 'order-update', 'order update', 'ordine_è']) expect(codes(base({ name }))).toEqual(['name_invalid']);
  });
  it('accepts 512 characters and rejects 513', () => {
    expect(codes(base({ name: 'a'.repeat(512) }))).toEqual([]);
    expect(codes(base({ name: 'a'.repeat(513) }))).toEqual(['name_too_long']);
  });
  it('accepts supported locale codes and rejects others', () => {
    for (const language of ['en_US', 'it', 'pt_BR', 'zh_CN']) expect(codes(base({ language }))).toEqual([]);
    for (const language of ['en-US', 'EN_US', 'xx', '']) expect(codes(base({ language }))).toEqual(['language_unsupported']);
  });
  it('checks the category and parameter format', () => {
    expect(codes(base({ category: 'TRANSACTIONAL' }))).toEqual(['category_invalid']);
    expect(codes(base({ parameterFormat: 'MIXED' }))).toContain('parameter_format_invalid');
  });
});

describe('component structure', () => {
  it('requires exactly one BODY', () => {
    expect(codes(base({ components: [] }))).toEqual(['body_missing']);
    expect(codes(base({ components: [BODY, BODY] }))).toEqual(['component_duplicate']);
  });
  it('allows at most one HEADER, FOOTER and BUTTONS', () => {
    const h: TemplateComponent = { type: 'HEADER', format: 'TEXT', text: 'Update' };
    const f: TemplateComponent = { type: 'FOOTER', text: 'Thanks' };
    expect(codes(withComponents(h, f))).toEqual([]);
    expect(codes(withComponents(h, h))).toEqual(['component_duplicate']);
    expect(codes(withComponents(f, f))).toEqual(['component_duplicate']);
    const b: TemplateComponent = { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }] };
    expect(codes(withComponents(b, b))).toEqual(['component_duplicate']);
  });
  it('reports every issue at once, in document order, with paths', () => {
    const issues = validateTemplate({ ...withComponents({ type: 'FOOTER', text: 'x'.repeat(61) }), name: 'Bad Name', language: 'zz' });
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual([
      ['name_invalid', 'name'],
      ['language_unsupported', 'language'],
      ['text_too_long', 'components.1.text'],
    ]);
  });
});

describe('text lengths', () => {
  const pad = (n: number) => 'word '.repeat(n).slice(0, n);
  it('body: 1024 ok, 1025 rejected', () => {
    expect(codes(withBody(pad(1024)))).toEqual([]);
    expect(codes(withBody(pad(1025)))).toEqual(['text_too_long']);
  });
  it('header text: 60 ok, 61 rejected; no line breaks', () => {
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(60) }))).toEqual([]);
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) }))).toEqual(['text_too_long']);
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'a\nb' }))).toEqual(['text_newline']);
  });
  it('footer: 60 ok, 61 rejected; no placeholders', () => {
    expect(codes(withComponents({ type: 'FOOTER', text: 'f'.repeat(60) }))).toEqual([]);
    expect(codes(withComponents({ type: 'FOOTER', text: 'f'.repeat(61) }))).toEqual(['text_too_long']);
    expect(codes(withComponents({ type: 'FOOTER', text: 'Order {{1}}' }))).toEqual(['footer_variables']);
  });
  it('button text: 25 ok, 26 rejected', () => {
    expect(codes(withButtons({ type: 'QUICK_REPLY', text: 'b'.repeat(25) }))).toEqual([]);
    expect(codes(withButtons({ type: 'QUICK_REPLY', text: 'b'.repeat(26) }))).toEqual(['text_too_long']);
    expect(codes(withButtons({ type: 'QUICK_REPLY', text: '' }))).toEqual(['text_required']);
  });
  it('requires body text', () => expect(codes(withBody(''))).toEqual(['text_required']));
});

describe('header formats', () => {
  it('requires a known format', () => {
    expect(codes(withComponents({ type: 'HEADER', text: 'x' }))).toEqual(['header_format_invalid']);
  });
  it('media headers need a sample handle', () => {
    expect(codes(withComponents({ type: 'HEADER', format: 'IMAGE' }))).toEqual(['header_example_missing']);
    expect(codes(withComponents({ type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['4::aW1n'] } }))).toEqual([]);
    expect(codes(withComponents({ type: 'HEADER', format: 'LOCATION' }))).toEqual([]);
  });
  it('a text header holds at most one placeholder, {{1}}, with an example', () => {
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#1'] } }))).toEqual([]);
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' }))).toEqual(['header_example_missing']);
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: '{{1}} and {{2}}' }))).toEqual(['header_variables']);
    expect(codes(withComponents({ type: 'HEADER', format: 'TEXT', text: 'Order {{2}}', example: { header_text: ['#1'] } }))).toEqual(['placeholder_sequence']);
  });
});

describe('placeholders', () => {
  it('POSITIONAL: sequential from 1 without gaps', () => {
    expect(codes(withBody('Hi {{1}}, order {{3}} has shipped to you today.', ['a', 'b']))).toEqual(['placeholder_sequence']);
    expect(codes(withBody('Hi {{2}}, your order {{1}} has shipped to you.', ['a', 'b']))).toEqual([]);
    expect(codes(withBody('Hi {{1}}, again {{1}}, your order has shipped to you today.', ['a']))).toEqual([]);
  });
  it('rejects malformed placeholders', () => {
    for (const p of ['{{ 1 }}', '{{one}}', '{{0}}', '{{1a}}', '{{}}']) {
      expect(codes(withBody(`Hi ${p}, your order has shipped today.`, ['a'])), p).toContain('placeholder_invalid');
    }
    expect(codes(withBody('Hi {1}, your order has shipped today.'))).toEqual(['placeholder_invalid']);
    expect(codes(withBody('Hi {{{1}}}, your order has shipped today.', ['a']))).toContain('placeholder_invalid');
  });
  it('NAMED: {{snake_case}} names with named examples', () => {
    const named = (text: string, params: { param_name: string; example: string }[] | undefined) =>
      base({ parameterFormat: 'NAMED', components: [{ type: 'BODY', text, ...(params ? { example: { body_text_named_params: params } } : {}) }] });
    const text = 'Hi {{first_name}}, your order {{order_id}} has shipped today.';
    expect(
      codes(
        named(text, [
          { param_name: 'first_name', example: 'Ann' },
          { param_name: 'order_id', example: '#1' },
        ]),
      ),
    ).toEqual([]);
    expect(codes(named(text, undefined))).toEqual(['example_missing']);
    expect(codes(named(text, [{ param_name: 'first_name', example: 'Ann' }]))).toEqual(['example_mismatch']);
    expect(codes(named('Hi {{FirstName}}, your order has shipped today.', [{ param_name: 'FirstName', example: 'a' }]))).toEqual(['placeholder_invalid']);
    expect(codes(named('Hi {{1}}, your order has shipped today.', undefined))).toEqual(['placeholder_invalid']);
  });
  it('rejects adjacent placeholders', () => {
    expect(codes(withBody('Dear customer {{1}} {{2}} your order has shipped today.', ['a', 'b']))).toEqual(['placeholder_adjacent']);
    expect(codes(withBody('Dear customer {{1}}{{2}} your order has shipped today.', ['a', 'b']))).toEqual(['placeholder_adjacent']);
  });
  it('rejects a placeholder as the very first or last token; punctuation after it is a token', () => {
    expect(codes(withBody('{{1}}, your order has shipped today.', ['a']))).toEqual(['placeholder_dangling']);
    expect(codes(withBody('Your order has shipped today, {{1}}', ['a']))).toEqual(['placeholder_dangling']);
    expect(codes(withBody('Your order has shipped today, {{1}}  \n', ['a']))).toEqual(['placeholder_dangling']);
    // The provider's own example ends "... is {{order_number}}." (templates overview page).
    expect(codes(withBody('Your order has shipped today, {{1}}.', ['a']))).toEqual([]);
    expect(codes(withBody('Your order has shipped today, {{1}} thanks.', ['a']))).toEqual([]);
  });
  it('rejects too many variables for too little text', () => {
    expect(codes(withBody('Hi {{1}} and {{2}} ok', ['a', 'b']))).toEqual(['too_many_variables']);
    expect(codes(withBody('Hi {{1}} and {{2}} ok then thanks', ['a', 'b']))).toEqual([]);
  });
  it('requires examples that match the count', () => {
    expect(codes(withBody('Hi {{1}}, your order {{2}} has shipped today.'))).toEqual(['example_missing']);
    expect(codes(withBody('Hi {{1}}, your order {{2}} has shipped today.', ['a']))).toEqual(['example_mismatch']);
    expect(codes(withBody('Hi {{1}}, your order {{2}} has shipped today.', ['a', ' ']))).toEqual(['example_mismatch']);
  });
});

describe('buttons', () => {
  const qr = (text = 'Yes') => ({ type: 'QUICK_REPLY' as const, text });
  const url = (u = 'https://example.com/a') => ({ type: 'URL' as const, text: 'Open', url: u });
  it('needs at least one and at most 10', () => {
    expect(codes(withButtons())).toEqual(['buttons_empty']);
    expect(codes(withButtons(...Array.from({ length: 10 }, (_, i) => qr(`Option ${i}`))))).toEqual([]);
    expect(codes(withButtons(...Array.from({ length: 11 }, (_, i) => qr(`Option ${i}`))))).toEqual(['buttons_too_many']);
  });
  it('limits URL (2), phone (1) and copy-code (1) buttons', () => {
    expect(codes(withButtons(url(), url()))).toEqual([]);
    expect(codes(withButtons(url(), url(), url()))).toEqual(['buttons_type_limit']);
    const phone = { type: 'PHONE_NUMBER' as const, text: 'Call us', phone_number: '+390212345678' };
    expect(codes(withButtons(phone))).toEqual([]);
    expect(codes(withButtons(phone, phone))).toEqual(['buttons_type_limit']);
    const copy = { type: 'COPY_CODE' as const, example: 'SAVE10' };
    const marketing = (def: TemplateDefinition) => codes({ ...def, category: 'MARKETING' });
    expect(marketing(withButtons(copy))).toEqual([]);
    expect(marketing(withButtons(copy, copy))).toEqual(['buttons_type_limit']);
  });
  it('requires quick replies to be grouped', () => {
    expect(codes(withButtons(qr('A'), qr('B'), url()))).toEqual([]);
    expect(codes(withButtons(url(), qr('A'), qr('B')))).toEqual([]);
    expect(codes(withButtons(qr('A'), url(), qr('B')))).toEqual(['buttons_not_grouped']);
  });
  it('checks URL and phone values', () => {
    expect(codes(withButtons(url('example.com')))).toEqual(['button_invalid']);
    expect(codes(withButtons({ ...url('https://example.com/t/{{1}}'), example: ['abc'] }))).toEqual([]);
    expect(codes(withButtons(url('https://example.com/t/{{1}}')))).toEqual(['example_missing']);
    expect(codes(withButtons({ ...url('https://example.com/{{1}}/x'), example: ['a'] }))).toEqual(['button_invalid']);
    expect(codes(withButtons({ type: 'PHONE_NUMBER', text: 'Call', phone_number: 'call me' }))).toEqual(['button_invalid']);
    expect(codes(withButtons({ type: 'OTP', otp_type: 'COPY_CODE' }))).toEqual(['button_not_allowed']);
  });
});

describe('AUTHENTICATION', () => {
  const auth = (...components: TemplateComponent[]): TemplateDefinition => base({ category: 'AUTHENTICATION', components });
  const otp: TemplateComponent = { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] };
  it('accepts the preset shape', () => {
    expect(codes(auth({ type: 'BODY', add_security_recommendation: true }, { type: 'FOOTER', code_expiration_minutes: 10 }, otp))).toEqual([]);
  });
  it('rejects headers, custom text, bad expiry and a missing OTP button', () => {
    expect(codes(auth({ type: 'HEADER', format: 'TEXT', text: 'Code' }, { type: 'BODY' }, otp))).toEqual(['header_not_allowed']);
    expect(codes(auth({ type: 'BODY', text: 'Your code is {{1}} ok' }, otp))).toEqual(['auth_invalid']);
    expect(codes(auth({ type: 'BODY' }, { type: 'FOOTER', code_expiration_minutes: 91 }, otp))).toEqual(['auth_invalid']);
    expect(codes(auth({ type: 'BODY' }))).toEqual(['auth_invalid']);
    expect(codes(auth({ type: 'BODY' }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Hi' }] }))).toEqual(['auth_invalid']);
  });
});
