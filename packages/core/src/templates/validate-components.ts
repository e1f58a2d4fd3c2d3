import { TEMPLATE_LIMITS } from './limits';
import { findPlaceholders, placeholderNames } from './placeholders';
import { HEADER_FORMATS, OTP_TYPES, type TemplateButton, type TemplateComponent, type TemplateIssue } from './schema';
import { checkPlaceholderSyntax } from './validate-text';

type Path = (string | number)[];
export type Report = (path: Path, code: TemplateIssue['code'], message: string) => void;

function checkLength(text: string, max: number, what: string, path: Path, report: Report): void {
  if (text.length > max) report(path, 'text_too_long', `${what} is ${text.length} characters; the maximum is ${max}`);
}

export function checkHeader(c: TemplateComponent, format: string, path: Path, report: Report): void {
  if (!c.format || !(HEADER_FORMATS as readonly string[]).includes(c.format)) {
    report([...path, 'format'], 'header_format_invalid', `A header needs a format: one of ${HEADER_FORMATS.join(', ')}`);
    return;
  }
  if (c.format === 'LOCATION') return;
  if (c.format !== 'TEXT') {
    if (!c.example?.header_handle?.length) {
      report([...path, 'example', 'header_handle'], 'header_example_missing', `A ${c.format} header needs a sample media handle`);
    }
    return;
  }
  const text = c.text ?? '';
  if (text.trim() === '') return report([...path, 'text'], 'text_required', 'A TEXT header needs text');
  checkLength(text, TEMPLATE_LIMITS.headerTextMax, 'Header text', [...path, 'text'], report);
  if (/\n/.test(text)) report([...path, 'text'], 'text_newline', 'Header text cannot contain line breaks');
  if (!checkPlaceholderSyntax(text, format, [...path, 'text'], report)) return;
  const names = placeholderNames(text);
  if (findPlaceholders(text).length > TEMPLATE_LIMITS.headerVariablesMax) {
    report([...path, 'text'], 'header_variables', 'A header can hold at most one placeholder');
    return;
  }
  if (names.length === 0) return;
  if (format !== 'NAMED' && names[0] !== '1') {
    report([...path, 'text'], 'placeholder_sequence', 'The header placeholder must be {{1}}');
  }
  const ok =
    format === 'NAMED'
      ? c.example?.header_text_named_params?.some((p) => p.param_name === names[0] && p.example.trim() !== '')
      : (c.example?.header_text?.length ?? 0) === 1 && c.example!.header_text![0]!.trim() !== '';
  if (!ok) report([...path, 'example'], 'header_example_missing', 'Add one example value for the header placeholder');
}

export function checkFooter(c: TemplateComponent, path: Path, report: Report): void {
  const text = c.text ?? '';
  if (text.trim() === '') return report([...path, 'text'], 'text_required', 'A footer needs text');
  checkLength(text, TEMPLATE_LIMITS.footerMax, 'Footer text', [...path, 'text'], report);
  if (/\n/.test(text)) report([...path, 'text'], 'text_newline', 'Footer text cannot contain line breaks');
  if (/[{}]/.test(text)) report([...path, 'text'], 'footer_variables', 'A footer cannot contain placeholders');
}

function checkUrlButton(b: TemplateButton, path: Path, report: Report): void {
  const url = b.url ?? '';
  if (!/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(url.replace(/\{\{1\}\}$/, 'x'))) {
    report([...path, 'url'], 'button_invalid', 'A URL button needs an http(s) URL');
    return;
  }
  if (url.length > TEMPLATE_LIMITS.urlMax) report([...path, 'url'], 'text_too_long', `URL is longer than ${TEMPLATE_LIMITS.urlMax} characters`);
  const vars = findPlaceholders(url);
  if (vars.length === 0) {
    if (/[{}]/.test(url)) report([...path, 'url'], 'button_invalid', 'A URL button can hold one placeholder, {{1}}, at the very end of the URL');
    return;
  }
  if (vars.length > 1 || vars[0]!.inner !== '1' || vars[0]!.end !== url.length) {
    report([...path, 'url'], 'button_invalid', 'A URL button can hold one placeholder, {{1}}, at the very end of the URL');
    return;
  }
  const example = Array.isArray(b.example) ? b.example[0] : b.example;
  if (!example || example.trim() === '') report([...path, 'example'], 'example_missing', 'Add an example value for the URL placeholder');
}

function checkButton(b: TemplateButton, path: Path, report: Report): void {
  if (b.type === 'OTP') return report([...path, 'type'], 'button_invalid', 'OTP buttons belong to AUTHENTICATION templates');
  if (b.type === 'COPY_CODE') {
    const example = Array.isArray(b.example) ? b.example[0] : b.example;
    if (!example || example.length > TEMPLATE_LIMITS.copyCodeExampleMax) {
      report([...path, 'example'], 'button_invalid', `A copy-code button needs an example code of 1 to ${TEMPLATE_LIMITS.copyCodeExampleMax} characters`);
    }
    return;
  }
  const text = b.text ?? '';
  if (text.trim() === '') report([...path, 'text'], 'text_required', 'A button needs text');
  checkLength(text, TEMPLATE_LIMITS.buttonTextMax, 'Button text', [...path, 'text'], report);
  if (/[{}]/.test(text)) report([...path, 'text'], 'button_invalid', 'Button text cannot contain placeholders');
  if (b.type === 'URL') checkUrlButton(b, path, report);
  if (b.type === 'PHONE_NUMBER') {
    const phone = b.phone_number ?? '';
    if (!/^\+?[1-9][0-9]{6,18}$/.test(phone) || phone.length > TEMPLATE_LIMITS.phoneNumberMax) {
      report([...path, 'phone_number'], 'button_invalid', 'A phone-number button needs a number in international format, up to 20 characters');
    }
  }
}

export function checkButtons(c: TemplateComponent, path: Path, report: Report): void {
  const buttons = c.buttons ?? [];
  if (buttons.length === 0) return report([...path, 'buttons'], 'buttons_empty', 'A BUTTONS component needs at least one button');
  if (buttons.length > TEMPLATE_LIMITS.buttonsMax) {
    report([...path, 'buttons'], 'buttons_too_many', `At most ${TEMPLATE_LIMITS.buttonsMax} buttons; found ${buttons.length}`);
  }
  const count = (t: string) => buttons.filter((b) => b.type === t).length;
  const limits: [string, number, string][] = [
    ['URL', TEMPLATE_LIMITS.urlButtonsMax, 'URL'],
    ['PHONE_NUMBER', TEMPLATE_LIMITS.phoneButtonsMax, 'phone-number'],
    ['COPY_CODE', TEMPLATE_LIMITS.copyCodeButtonsMax, 'copy-code'],
  ];
  for (const [type, max, label] of limits) {
    if (count(type) > max) report([...path, 'buttons'], 'buttons_type_limit', `At most ${max} ${label} button(s); found ${count(type)}`);
  }
  // Quick replies must form one run (all before or all after the call-to-action buttons).
  const quick = buttons.map((b, i) => (b.type === 'QUICK_REPLY' ? i : -1)).filter((i) => i >= 0);
  if (quick.length > 0 && quick[quick.length - 1]! - quick[0]! + 1 !== quick.length) {
    report([...path, 'buttons'], 'buttons_not_grouped', 'Quick-reply buttons must be grouped together, not mixed between other buttons');
  }
  buttons.forEach((b, i) => checkButton(b, [...path, 'buttons', i], report));
}

/**
 * AUTHENTICATION templates use the provider's preset text ("<code> is your verification
 * code."), an optional security sentence and expiry footer, and exactly one OTP button.
 * Custom text, headers, media and URLs are not allowed.
 */
export function checkAuthentication(components: TemplateComponent[], report: Report): void {
  components.forEach((c, i) => {
    const path: Path = ['components', i];
    if (c.type === 'HEADER') report(path, 'header_not_allowed', 'AUTHENTICATION templates cannot have a header');
    if (c.type === 'BODY' && c.text !== undefined && c.text.trim() !== '') {
      report([...path, 'text'], 'auth_invalid', 'AUTHENTICATION body text is preset by the provider; leave text empty');
    }
    if (c.type === 'FOOTER') {
      if (c.text !== undefined && c.text.trim() !== '') report([...path, 'text'], 'auth_invalid', 'AUTHENTICATION footers only take code_expiration_minutes');
      const m = c.code_expiration_minutes;
      const { min, max } = TEMPLATE_LIMITS.codeExpirationMinutes;
      if (m !== undefined && (m < min || m > max)) report([...path, 'code_expiration_minutes'], 'auth_invalid', `code_expiration_minutes must be ${min} to ${max}`);
    }
  });
  const buttons = components.filter((c) => c.type === 'BUTTONS').flatMap((c) => c.buttons ?? []);
  const otp = buttons[0];
  const index = components.findIndex((c) => c.type === 'BUTTONS');
  const path: Path = index >= 0 ? ['components', index, 'buttons'] : ['components'];
  if (buttons.length !== 1 || otp?.type !== 'OTP' || !otp.otp_type || !(OTP_TYPES as readonly string[]).includes(otp.otp_type)) {
    report(path, 'auth_invalid', `AUTHENTICATION templates need exactly one OTP button with otp_type ${OTP_TYPES.join(', ')}`);
  } else if (otp.text !== undefined) {
    checkLength(otp.text, TEMPLATE_LIMITS.buttonTextMax, 'Button text', [...path, 0, 'text'], report);
  }
}
